/**
 * The source the Python child runs (`python3 -I -c`). It reads `{ script, args, memoryBytes,
 * cpuSeconds, maxProcesses }` on stdin — a code step's file adds `{ function, filename, env }` —
 * loads `script` as a module, calls its `main(*args)` (or `function`) and writes one answer
 * on stdout: `{ ok: true, value }` or `{ ok: false, kind: 'threw' | 'json' | 'memory', message? }`.
 * An error names its line in the code (an assertion's, counted without the header pythonModule
 * adds) or in the file (a code step's).
 * What the code prints goes to stderr, so it cannot spoil the answer. The address space is
 * capped (RLIMIT_AS) where the platform allows, and so is CPU time, in case nothing is left to
 * kill the child at the time limit; in a sandbox, so are its processes and threads (RLIMIT_NPROC,
 * which counts the sandbox's own: `maxProcesses` is 0 outside one).
 */
export const PYTHON_RUNNER = String.raw`
import json
import os
import sys
import traceback


def describe(error, filename):
    header, where = (3, "the code") if filename == "script.py" else (0, filename)
    if isinstance(error, SyntaxError) and error.filename == filename and (error.lineno or 0) > header:
        return "%s: %s (line %d of %s)" % (type(error).__name__, error.msg, error.lineno - header, where)
    text = type(error).__name__
    if str(error):
        text += ": " + str(error)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == filename]
    if frames and frames[-1].lineno > header:
        text += " (line %d of %s)" % (frames[-1].lineno - header, where)
    return text


def limit(request):
    try:
        import resource
    except ImportError:
        return
    limits = [("RLIMIT_AS", request["memoryBytes"], 0), ("RLIMIT_CPU", request["cpuSeconds"], 1)]
    if request["maxProcesses"]:
        limits.append(("RLIMIT_NPROC", request["maxProcesses"], 0))
    for name, value, extra in limits:
        try:
            resource.setrlimit(getattr(resource, name), (value, value + extra))
        except (AttributeError, ValueError, OSError):
            pass


def run_main(request, filename):
    import io
    captured = io.StringIO()
    sys.argv = [filename] + request.get("argv", [])
    sys.stdout = captured
    try:
        exec(compile(request["script"], filename, "exec"), {"__name__": "__main__", "__file__": filename})
    except SystemExit as ended:
        if ended.code not in (None, 0):
            return {"ok": False, "kind": "threw", "message": "%s exited with %s" % (filename, ended.code)}
    except MemoryError:
        return {"ok": False, "kind": "memory"}
    except BaseException as error:
        return {"ok": False, "kind": "threw", "message": describe(error, filename)}
    finally:
        sys.stdout = sys.stderr
    return json.dumps({"ok": True, "value": captured.getvalue()})


def run(request):
    limit(request)
    os.environ.update(request.get("env", {}))
    filename = request.get("filename", "script.py")
    if request.get("main"):
        return run_main(request, filename)
    try:
        module = {"__name__": "script", "__file__": filename}
        exec(compile(request["script"], filename, "exec"), module)
        function = module.get(request.get("function", "main"))
        if not callable(function):
            return {"ok": False, "kind": "threw", "message": "%s defines no function %s(input, context)" % (filename, request.get("function", "main"))}
        result = function(*request["args"])
    except MemoryError:
        return {"ok": False, "kind": "memory"}
    except BaseException as error:
        return {"ok": False, "kind": "threw", "message": describe(error, filename)}
    try:
        return json.dumps({"ok": True, "value": result}, allow_nan=False)
    except MemoryError:
        return {"ok": False, "kind": "memory"}
    except (TypeError, ValueError, RecursionError) as error:
        return {"ok": False, "kind": "json", "message": str(error)}


answer = sys.stdout.buffer
sys.stdout = sys.stderr
outcome = run(json.loads(sys.stdin.buffer.read().decode("utf-8")))
answer.write((outcome if isinstance(outcome, str) else json.dumps(outcome)).encode("utf-8"))
answer.flush()
`
