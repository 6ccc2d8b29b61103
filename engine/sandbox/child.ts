/**
 * One run of user code in a child process: the request goes in on stdin, one JSON answer comes
 * back on stdout. The child starts in a fresh temporary folder with only the environment it is
 * given, and is killed — with its process group — at the time limit, on abort, or when its
 * resident memory passes the limit plus the runtime's own share, whatever it is doing.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JudgeflowError } from '../errors'
import { MAX_VALUE_DEPTH, readJson } from '../text/safe-json'
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

async function residentMb(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  }
  catch {
    return undefined
  }
}

function runIn(cwd: string, spec: ChildSpec, limits: SandboxLimits, signal?: AbortSignal): Promise<Ending> {
  return new Promise((resolve) => {
    const child = spawn(spec.command, spec.args, { cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    let killed: Killed | undefined
    let done = false
    let stdout = ''
    let stderr = ''
    const kill = (why: Killed) => {
      // Once it has ended, its process group id may belong to someone else.
      if (done) return
      killed ??= why
      try {
        process.kill(-child.pid!, 'SIGKILL')
      }
      catch {
        child.kill('SIGKILL')
      }
    }
    const onAbort = () => kill('abort')
    const timer = setTimeout(kill, limits.timeoutMs, 'timeout')
    const memoryCheck = setInterval(async () => {
      const mb = child.pid === undefined ? undefined : await residentMb(child.pid)
      if (mb !== undefined && mb > limits.memoryMb + RUNTIME_ALLOWANCE_MB) kill('memory')
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
  const cwd = await mkdtemp(join(tmpdir(), 'judgeflow-code-'))
  try {
    const outcome = errorFor(await runIn(cwd, spec, limits, signal), spec, limits)
    if (outcome instanceof JudgeflowError) throw outcome
    return outcome.value
  }
  finally {
    await rm(cwd, { recursive: true, force: true })
  }
}
