# An exec provider: promptfoo runs it with the prompt, the options and the context as arguments;
# what it prints is the answer.
import json
import sys

prompt, options, context = sys.argv[-3], json.loads(sys.argv[-2]), json.loads(sys.argv[-1])
mode = sys.argv[1] if len(sys.argv) > 4 else "plain"
echo = prompt.split("ECHO>>")[-1].split("<<ECHO")[0]
if context["vars"].get("down") == "yes":
    sys.exit(3)
print("  " + (echo.upper() if mode == "loud" else echo) + "\n")
