import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../core'
import { createScriptRunner, runJavascript, runPython } from '../../../engine/sandbox'
import { runChild } from '../../../engine/sandbox/child'
import { findProgram, installFolder } from '../../../engine/sandbox/isolation'
import { javascriptChild, javascriptIsolation } from '../../../engine/sandbox/javascript'

// These tests need bubblewrap, which `npm test` installs where it is missing (scripts/test.mjs).
const { searchPath, maxProcesses } = loadConfig().code
const limits = { timeoutMs: 3000, memoryMb: 64, maxProcesses, searchPath, isolation: 'require' as const }
const python = (code: string, extra: Partial<typeof limits> = {}) => runPython({ code, args: { output: '', context: {} }, mode: 'assertion' }, { ...limits, ...extra })
const failure = (language: string, reason: string, message?: string | RegExp) => expect.objectContaining({
  code: 'SCRIPT_FAILED', details: { language, reason },
  ...(message === undefined ? {} : { message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) }),
})

/** The pids of the processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name))
    }
    catch {
      // ended meanwhile
    }
  }
  return found
}

/** Waits up to a second for every process holding `marker` to be gone; the pids left. */
async function survivors(marker: string): Promise<number[]> {
  for (let i = 0; i < 20; i++) {
    const left = processesWith(marker)
    if (!left.length) return []
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return processesWith(marker)
}

const SECRET = 'judgeflow-isolation-test-secret-0b7c'

describe('the sandbox: user code sees nothing of the machine it was not given', () => {
  let server: Server
  let port: number
  let connections = 0
  beforeAll(async () => {
    process.env.JUDGEFLOW_ISOLATION_TEST_SECRET = SECRET
    server = createServer((socket) => {
      connections++
      socket.end('hello')
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(async () => {
    Reflect.deleteProperty(process.env, 'JUDGEFLOW_ISOLATION_TEST_SECRET')
    await new Promise(resolve => server.close(resolve))
  })

  it('python: no parent process in /proc, no environment, none of the server\'s files, no network', async () => {
    const code = `import os, socket
seen = {"pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), "ppid": os.getppid(), "environ": "", "cwd": None, "files": sorted(os.listdir("/"))}
for pid in seen["pids"]:
    try:
        seen["environ"] += open("/proc/%d/environ" % pid, "rb").read().decode("latin-1").replace("\\0", "\\n")
    except OSError:
        pass
try:
    seen["cwd"] = os.listdir(${JSON.stringify(process.cwd())})
except OSError as error:
    seen["cwd"] = type(error).__name__
try:
    socket.create_connection(("127.0.0.1", ${port}), 1).recv(5)
    seen["net"] = "connected"
except OSError as error:
    seen["net"] = type(error).__name__
return seen`
    const seen = await python(code) as { pids: number[], ppid: number, environ: string, cwd: unknown, files: string[], net: string }
    // Its own pid namespace: bwrap's reaper (1) and the code, never the server.
    expect(Math.max(...seen.pids)).toBeLessThan(10)
    expect(seen.pids).not.toContain(process.pid)
    expect(seen.environ).not.toContain(SECRET)
    expect(seen.environ).not.toContain('OPENAI')
    expect(seen.cwd).toBe('FileNotFoundError')
    expect(seen.files).not.toContain('work')
    expect(seen.files).not.toContain('home')
    expect(seen.net).toMatch(/ConnectionRefusedError|OSError/)
    expect(connections).toBe(0)
  })

  it('javascript: code that escaped its context finds no server process, secret, folder or network', async () => {
    const spec = javascriptChild({ code: 'true', args: { output: '' }, mode: 'assertion' }, limits)
    const escaped = `const fs = require('node:fs'), net = require('node:net')
const pids = fs.readdirSync('/proc').filter(p => /^\\d+$/.test(p))
let environ = ''
for (const pid of pids) { try { environ += fs.readFileSync('/proc/' + pid + '/environ', 'latin1').replaceAll('\\0', '\\n') } catch {} }
let cwd
try { cwd = fs.readdirSync(${JSON.stringify(process.cwd())}) } catch (error) { cwd = error.code }
const socket = net.connect(${port}, '127.0.0.1')
const answer = net => process.stdout.write(JSON.stringify({ ok: true, value: { pids, environ, cwd, net } }))
socket.on('connect', () => answer('connected'))
socket.on('error', error => answer(error.code))`
    const probe = await javascriptIsolation(searchPath)
    expect(probe).toMatchObject({ ok: true })
    const sandbox = probe.ok ? { isolator: probe.isolator, binds: installFolder(process.execPath) } : undefined
    type Seen = { pids: string[], environ: string, cwd: unknown, net: string }
    const seen = await runChild({ ...spec, args: [...spec.args.slice(0, -1), escaped], sandbox }, limits) as Seen
    expect(seen.pids.map(Number)).not.toContain(process.pid)
    expect(seen.environ).not.toContain(SECRET)
    expect(seen.cwd).toBe('ENOENT')
    expect(seen.net).toMatch(/ECONNREFUSED|ENETUNREACH/)
    expect(connections).toBe(0)
  })
})

describe('the sandbox: the limits hold over every process the code starts', () => {
  it('ends a forked, setsid grandchild that closed its output when the code answers', async () => {
    const marker = `judgeflow-orphan-${process.pid}-a`
    const code = `import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        fd = os.open("/dev/null", os.O_RDWR)
        for n in (0, 1, 2):
            os.dup2(fd, n)
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(30)", "${marker}"])
    os._exit(0)
time.sleep(0.3)
return True`
    expect(await python(code)).toBe(true)
    expect(await survivors(marker)).toEqual([])
  })

  it('ends the whole tree at the time limit, even a grandchild that holds the output open', async () => {
    const marker = `judgeflow-orphan-${process.pid}-b`
    const code = `import os, sys, time
if os.fork() == 0:
    os.setsid()
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "${marker}"])
time.sleep(60)`
    const started = Date.now()
    await expect(python(code, { timeoutMs: 800 })).rejects.toThrow(failure('Python', 'timeout', 'stopped after 800 ms'))
    expect(Date.now() - started).toBeLessThan(5000)
    expect(await survivors(marker)).toEqual([])
  })

  it('bounds the memory of all the code\'s processes together, not each', async () => {
    // Six processes of about 40 MB each: each under the 64 MB limit, together far over it.
    const code = `import os, time
kept = []
for i in range(5):
    if os.fork() == 0:
        break
kept.append(bytearray(40 * 1024 * 1024))
time.sleep(20)`
    await expect(python(code, { timeoutMs: 15_000 })).rejects.toThrow(failure('Python', 'memory', 'it used more than 64 MB of memory'))
  })

  it('bounds the number of processes: a fork bomb stops at JUDGEFLOW_CODE_MAX_PROCESSES', async () => {
    const marker = `judgeflow-bomb-${process.pid}`
    const code = `import os, sys, time
forked = 0
try:
    for i in range(500):
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(30)", "${marker}"])
        forked += 1
except OSError as error:
    return {"forked": forked, "error": type(error).__name__}
return {"forked": forked}`
    const result = await python(code, { maxProcesses: 16, timeoutMs: 10_000 }) as { forked: number, error?: string }
    expect(result.error).toBe('BlockingIOError')
    expect(result.forked).toBeLessThan(16)
    expect(await survivors(marker)).toEqual([])
  })
})

describe('where code cannot be isolated', () => {
  let noBwrap: string
  beforeAll(() => {
    // A PATH with python3 (the interpreter itself: a pyenv shim needs more of PATH) and no bwrap.
    noBwrap = mkdtempSync(join(tmpdir(), 'judgeflow-no-bwrap-'))
    const interpreter = execFileSync(findProgram('python3', searchPath)!, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim()
    symlinkSync(interpreter, join(noBwrap, 'python3'))
  })
  afterAll(() => rmSync(noBwrap, { recursive: true, force: true }))

  it('the server refuses it, naming what to install, before any code runs', async () => {
    const refused = { ...limits, searchPath: noBwrap }
    await expect(runPython({ code: 'True', args: { output: '' }, mode: 'assertion' }, refused))
      .rejects.toThrow(failure('Python', 'not-isolated', /^The Python code was not run, because this server runs user code only in a sandbox and bubblewrap \(bwrap\), which isolates user code, is not installed: install bubblewrap \(Debian and Ubuntu: apt-get install bubblewrap/))
    await expect(runJavascript({ code: 'true', args: { output: '' }, mode: 'assertion' }, refused))
      .rejects.toThrow(failure('JavaScript', 'not-isolated', 'bubblewrap (bwrap), which isolates user code, is not installed'))
    await expect(createScriptRunner(refused).ready()).rejects.toThrow(expect.objectContaining({
      code: 'INVALID_CONFIG', message: expect.stringMatching(/^javascript, python and transform run code, which this server runs only in a sandbox, and bubblewrap \(bwrap\)/),
    }))
    await expect(createScriptRunner(limits).ready()).resolves.toBeUndefined()
  })

  it('the CLI\'s `prefer` runs it in a plain child process, with an empty environment', async () => {
    const seen = await runPython({ code: 'import os\nreturn sorted(os.environ)', args: { output: '' }, mode: 'assertion' }, { ...limits, searchPath: noBwrap, isolation: 'prefer' })
    // Python adds LC_CTYPE itself under the C locale (PEP 538).
    expect((seen as string[]).filter(name => name !== 'LC_CTYPE')).toEqual(['PATH'])
  })
})
