/**
 * One run of user code in a child process: the request goes in on stdin, one JSON answer comes
 * back on stdout. The child runs in its sandbox (isolation.ts) — or, where none is available and
 * the caller allows it, in a fresh temporary folder — with only the environment it is given, and
 * is killed with every process it started at the time limit, on abort, or when the resident
 * memory of all its processes together passes the limit plus the runtime's own share.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JudgeflowError } from '../errors'
import { MAX_VALUE_DEPTH, readJson } from '../text/safe-json'
import { bwrapArguments, type Isolator } from './isolation'
import type { SandboxLimits } from './limits'

/** What the interpreter itself occupies besides the memory the code may use (node: about 45 MB at rest). */
export const RUNTIME_ALLOWANCE_MB = 96
/** How often the child's resident memory is read. */
const MEMORY_CHECK_MS = 50
/** The end of the child's stderr kept to explain a child that died without answering. */
const STDERR_TAIL_CHARS = 4000

export type Language = 'JavaScript' | 'Python'

export interface ChildSpec {
  language: Language
  command: string
  args: string[]
  env: Record<string, string>
  input: string
  /** Whether the child's stderr says it ran out of memory (when it died without answering). */
  outOfMemory: (stderr: string) => boolean
  /** The sandbox it runs in, with the folders its program needs (and the network, when granted); none: a plain child process. */
  sandbox?: { isolator: Isolator, binds: string[], network?: boolean }
}

type Answer
  = | { ok: true, value?: unknown, number?: string }
    | { ok: false, kind: 'threw' | 'json' | 'refused' | 'timeout' | 'memory', message?: string }

type Killed = 'timeout' | 'memory' | 'abort' | 'answer-size'
type Ending = { answer: Answer } | { killed: Killed } | { died: string }

function scriptFailed(language: Language, reason: string, message: string): JudgeflowError {
  return new JudgeflowError('SCRIPT_FAILED', message, { details: { language, reason } })
}

function timedOut(language: Language, limits: SandboxLimits): JudgeflowError {
  return scriptFailed(language, 'timeout', `The ${language} code was stopped after ${limits.timeoutMs} ms, the time limit (JUDGEFLOW_CODE_TIMEOUT_MS); make it finish sooner or raise the limit.`)
}

function outOfMemory(language: Language, limits: SandboxLimits): JudgeflowError {
  return scriptFailed(language, 'memory', `The ${language} code was stopped: it used more than ${limits.memoryMb} MB of memory, the limit (JUDGEFLOW_CODE_MEMORY_MB).`)
}

function errorFor(ending: Ending, spec: ChildSpec, limits: SandboxLimits): JudgeflowError | { value: unknown } {
  const { language } = spec
  if ('killed' in ending) {
    if (ending.killed === 'abort') return new JudgeflowError('CANCELLED', `The ${language} code was stopped: its run was cancelled.`)
    if (ending.killed === 'answer-size') {
      return scriptFailed(language, 'memory', `The ${language} code returned more than ${limits.memoryMb} MB of JSON, its memory limit (JUDGEFLOW_CODE_MEMORY_MB); return less.`)
    }
    return ending.killed === 'timeout' ? timedOut(language, limits) : outOfMemory(language, limits)
  }
  if ('died' in ending) {
    if (spec.outOfMemory(ending.died)) return outOfMemory(language, limits)
    const said = ending.died.trim()
    return scriptFailed(language, 'died', `The ${language} code's process ended without an answer${said ? `: ${said}` : '.'}`)
  }
  const { answer } = ending
  if (answer.ok) return { value: answer.number === undefined ? answer.value : Number(answer.number) }
  switch (answer.kind) {
    case 'timeout': return timedOut(language, limits)
    case 'memory': return outOfMemory(language, limits)
    case 'refused': return scriptFailed(language, 'refused', `The ${language} code returned a value that ${answer.message}.`)
    case 'json': return scriptFailed(language, 'not-json', `The ${language} code returned something JSON cannot hold (${answer.message}); return a boolean, a number, a string, or an array or object of them.`)
    default: return scriptFailed(language, 'threw', `The ${language} code threw an error: ${answer.message}`)
  }
}

/**
 * The child's answer, its value checked as any JSON from a user is (depth, `__proto__` keys, NUL
 * characters: the value may be stored as a step's output); undefined when the child wrote none.
 */
function parseAnswer(stdout: string): Answer | undefined {
  // The value sits one level inside the answer.
  const read = readJson(stdout, MAX_VALUE_DEPTH + 1)
  if (!read.ok && read.details) {
    const at = read.details.path.replace(/^value\.?/, '') || 'the top level'
    const message = read.details.limit === undefined
      ? read.reason.replace(/\(at [^)]*\)$/, `(at ${at})`)
      : `nests objects and arrays more than ${MAX_VALUE_DEPTH} levels deep (at ${at})`
    return { ok: false, kind: 'refused', message }
  }
  if (!read.ok) return undefined
  const answer = read.value as Answer
  return answer !== null && typeof answer === 'object' && typeof answer.ok === 'boolean' ? answer : undefined
}

/** The parent of each process on the machine, read from /proc. */
async function parents(): Promise<Map<number, number>> {
  const found = new Map<number, number>()
  const names = await readdir('/proc').catch(() => [] as string[])
  await Promise.all(names.map(async (name) => {
    if (!/^\d+$/.test(name)) return
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8')
      // pid (comm) state ppid …: the command may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ', 2)[1])
      found.set(Number(name), ppid)
    }
    catch {
      // ended meanwhile
    }
  }))
  return found
}

async function residentMb(pid: number | string, proc = '/proc'): Promise<number> {
  try {
    const status = await readFile(`${proc}/${pid}/status`, 'utf8')
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
    return kb === undefined ? 0 : Number(kb) / 1024
  }
  catch {
    return 0
  }
}

/** A process and all its descendants (a process's forks, a sandbox's processes). */
async function treeOf(root: number): Promise<number[]> {
  const parentOf = await parents()
  const tree = new Set([root])
  // Children are listed after their parents only by chance: walk until nothing is added.
  for (let grew = true; grew;) {
    grew = false
    for (const [pid, ppid] of parentOf) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid)
        grew = true
      }
    }
  }
  return [...tree]
}

/**
 * The resident memory of every process in a sandbox together, read from the sandbox's own /proc
 * (through its first process's root): it lists the sandbox's processes alone, a forked, setsid
 * one included, so nothing else on the machine is read.
 */
async function sandboxResidentMb(firstPid: number): Promise<number> {
  const proc = `/proc/${firstPid}/root/proc`
  // While bwrap sets the sandbox up, its first process's root is still the machine's, whose /proc
  // lists every process: until the sandbox's own /proc is there, its first process alone is counted.
  const [inside, machine] = await Promise.all([stat(proc).catch(() => undefined), stat('/proc')])
  if (!inside || (inside.dev === machine.dev && inside.ino === machine.ino)) return await residentMb(firstPid)
  const names = await readdir(proc).catch(() => [] as string[])
  const sizes = await Promise.all(names.filter(name => /^\d+$/.test(name)).map(name => residentMb(name, proc)))
  return sizes.reduce((sum, mb) => sum + mb, 0)
}

/** The process to start: the program itself, or bwrap running it in its sandbox. */
function launch(spec: ChildSpec, cwd: string | undefined) {
  if (!spec.sandbox) return { command: spec.command, args: spec.args, options: { cwd, env: spec.env } }
  const { isolator, binds, network } = spec.sandbox
  // bwrap itself gets no environment: its sandbox's first process is a copy of it, whose /proc/1/environ the code can read.
  return {
    command: isolator.bwrap,
    // On fd 3, bwrap says the pid of the sandbox's first process.
    args: ['--info-fd', '3', ...bwrapArguments({ command: spec.command, binds }, spec.env, { network }), '--', spec.command, ...spec.args],
    options: { env: {}, ...isolator.user },
  }
}

function runIn(cwd: string | undefined, spec: ChildSpec, limits: SandboxLimits, signal?: AbortSignal): Promise<Ending> {
  return new Promise((resolve) => {
    const { command, args, options } = launch(spec, cwd)
    // Its own process group: a kill reaches what it started (in a sandbox, bwrap's end ends its pid namespace).
    const child = spawn(command, args, { ...options, detached: true, stdio: ['pipe', 'pipe', 'pipe', spec.sandbox ? 'pipe' : 'ignore'] }) as ChildProcessWithoutNullStreams
    // In a sandbox, its first process, whose /proc lists all of the code's processes.
    let firstPid: number | undefined
    if (spec.sandbox) {
      let info = ''
      const infoStream = child.stdio[3] as NodeJS.ReadableStream
      infoStream.setEncoding('utf8')
      infoStream.on('data', (chunk: string) => {
        info += chunk
        const pid = /"child-pid":\s*(\d+)/.exec(info)?.[1]
        if (pid) firstPid = Number(pid)
      })
      infoStream.on('error', () => {})
    }
    let killed: Killed | undefined
    let done = false
    let stdout = ''
    let stderr = ''
    const kill = (why: Killed) => {
      // Once it has ended, its process group id may belong to someone else.
      if (done || killed) return
      killed = why
      const pid = child.pid!
      const end = (others: number[]) => {
        for (const target of [-pid, ...others]) {
          try {
            process.kill(target, 'SIGKILL')
          }
          catch {
            // gone already
          }
        }
      }
      // Outside a sandbox, a process that left the group (setsid) is still found by its parentage.
      if (spec.sandbox) end([])
      else void treeOf(pid).then(end)
    }
    const onAbort = () => kill('abort')
    const timer = setTimeout(kill, limits.timeoutMs, 'timeout')
    let checking = false
    const memoryCheck = setInterval(async () => {
      // Outside a sandbox, the child's own memory (what it forks is not watched there).
      const watched = spec.sandbox ? firstPid : child.pid
      if (checking || watched === undefined) return
      checking = true
      const mb = spec.sandbox ? await sandboxResidentMb(watched) : await residentMb(watched)
      checking = false
      if (mb > limits.memoryMb + RUNTIME_ALLOWANCE_MB) kill('memory')
    }, MEMORY_CHECK_MS)
    signal?.addEventListener('abort', onAbort, { once: true })
    // Aborted while the folder was being made: the listener came too late to hear it.
    if (signal?.aborted) kill('abort')
    // The answer is held in the server's memory: no larger than the child's own limit.
    const maxAnswerChars = limits.memoryMb * 1024 * 1024
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (killed) return
      stdout += chunk
      if (stdout.length > maxAnswerChars) kill('answer-size')
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS) })
    // A child that dies before reading its input closes the pipe: its exit explains why.
    child.stdin.on('error', () => {})
    child.on('error', error => finish({ died: error.message }))
    // Killed, it has no answer to wait for: a descendant that still holds its output does not hold the case.
    child.on('exit', () => { if (killed) finish({ killed }) })
    child.on('close', (code, signalName) => {
      if (killed) return finish({ killed })
      const answer = parseAnswer(stdout)
      finish(answer ? { answer } : { died: stderr || `exit code ${code ?? signalName}` })
    })
    function finish(ending: Ending) {
      if (done) return
      done = true
      clearTimeout(timer)
      clearInterval(memoryCheck)
      signal?.removeEventListener('abort', onAbort)
      resolve(ending)
    }
    child.stdin.end(spec.input)
  })
}

/** Runs the child and gives the code's result, or throws SCRIPT_FAILED (CANCELLED on abort) saying what happened. */
export async function runChild(spec: ChildSpec, limits: SandboxLimits, signal?: AbortSignal): Promise<unknown> {
  if (signal?.aborted) throw new JudgeflowError('CANCELLED', `The ${spec.language} code was not run: its run was cancelled.`)
  // A sandbox has a /tmp of its own, gone with it.
  const cwd = spec.sandbox ? undefined : await mkdtemp(join(tmpdir(), 'judgeflow-code-'))
  try {
    const outcome = errorFor(await runIn(cwd, spec, limits, signal), spec, limits)
    if (outcome instanceof JudgeflowError) throw outcome
    return outcome.value
  }
  finally {
    if (cwd !== undefined) await rm(cwd, { recursive: true, force: true })
  }
}
