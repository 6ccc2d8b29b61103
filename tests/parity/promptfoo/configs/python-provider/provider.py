# A promptfoo Python provider: call_api(prompt, options, context), and a named function.
def echo_of(prompt):
    return prompt.split("ECHO>>")[-1].split("<<ECHO")[0]


def call_api(prompt, options, context):
    if context["vars"].get("down") == "yes":
        return {"error": "the product is down"}
    prefix = options.get("config", {}).get("prefix", "")
    return {"output": prefix + echo_of(prompt)}


def shout(prompt, options, context):
    return {"output": echo_of(prompt).upper() + "!"}
