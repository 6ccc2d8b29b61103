/**
 * The isolation of user code: bubblewrap (`bwrap`) puts each run in namespaces of its own — no
 * network, its own process ids and /proc (no parent to read), an empty environment, the system's
 * programs read-only, a small private /tmp and nothing else of the machine's files — and, as the
 * first process of its own pid namespace, takes every process the code started with it when it
 * ends or is killed. As root, the code runs as the user nobody, so the kernel's limit on the
 * number of processes holds (it never binds root).
 *
 * Whether it works here is found by running the interpreter once in it (cached): the tool may be
 * missing, or the kernel may refuse the namespaces to this user.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'

/** The user code runs as when judgeflow runs as root: the kernel's process limit never binds root. */
export const SANDBOX_USER = { uid: 65534, gid: 65534 } as const

/** The size of the code's private /tmp (a tmpfs, in memory). */
export const SANDBOX_TMP_MB = 16

/** How long the probe of an interpreter in the sandbox may take. */
const PROBE_TIMEOUT_MS = 10_000

/** The install hint named by every refusal. */
export const INSTALL_BWRAP = 'install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)'

export interface Isolator {
  /** The bwrap program. */
  bwrap: string
  /** The user bwrap runs as (set when judgeflow runs as root). */
  user?: { uid: number, gid: number }
}

/** An interpreter that runs in the sandbox: its program and the folders it needs besides the system's. */
export interface SandboxedProgram {
  command: string
  /** Folders bound read-only at their own path (an interpreter installed outside /usr). */
  binds: string[]
}

export type IsolationProbe = { ok: true, isolator: Isolator } | { ok: false, reason: string }

/** The first executable file named `name` in the folders of `searchPath`, or undefined. */
export function findProgram(name: string, searchPath: string): string | undefined {
  for (const directory of searchPath.split(delimiter)) {
    if (!directory) continue
    const candidate = join(directory, name)
    try {
      accessSync(candidate, constants.X_OK)
      if (statSync(candidate).isFile()) return candidate
    }
    catch {
      // not here: the next folder
    }
  }
  return undefined
}

/** The isolator to use with this PATH, or undefined when bwrap is not on it or not on Linux. */
export function findIsolator(searchPath: string): Isolator | undefined {
  if (process.platform !== 'linux') return undefined
  const bwrap = findProgram('bwrap', searchPath)
  if (bwrap === undefined) return undefined
  return process.getuid?.() === 0 ? { bwrap, user: { ...SANDBOX_USER } } : { bwrap }
}

/** Why there is no isolator (findIsolator found none). */
export function noIsolator(): string {
  return process.platform === 'linux'
    ? `bubblewrap (bwrap), which isolates user code, is not installed: ${INSTALL_BWRAP}`
    : `user code is isolated with bubblewrap, which runs on Linux only, and this is ${process.platform}`
}

/** The folder above `bin/` of a program outside /usr, which the sandbox binds so the program finds its libraries. */
export function installFolder(program: string): string[] {
  let real: string
  try {
    real = realpathSync(program)
  }
  catch {
    return []
  }
  const prefix = dirname(dirname(real))
  return prefix === '/usr' || prefix.startsWith('/usr/') || prefix === '/' ? [] : [prefix]
}

/** `/bin`, `/lib`…: a symbolic link into /usr is made again inside; a real folder is bound read-only. */
function systemFolders(): string[] {
  const args: string[] = []
  for (const folder of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      if (lstatSync(folder).isSymbolicLink()) args.push('--symlink', readlinkSync(folder), folder)
      else args.push('--ro-bind', folder, folder)
    }
    catch {
      // not on this system
    }
  }
  return args
}

/** What a granted network needs of /etc: name resolution and the certificate authorities (Python's TLS reads them). */
const NETWORK_FILES = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/gai.conf', '/etc/host.conf', '/etc/ssl', '/etc/ca-certificates', '/etc/pki']

export interface SandboxOptions {
  /** The machine's network, shared (a `code` step whose config says `network: true`); none otherwise. */
  network?: boolean
}

/**
 * bwrap's arguments before the program: every namespace unshared (network, pids, IPC, UTS, user,
 * cgroup) — the network shared only when `options.network` grants it — an empty environment but
 * for `env`, /usr and the program's folders read-only, a new /proc and a minimal /dev, a private
 * /tmp of SANDBOX_TMP_MB as the working folder, the rest of the file system read-only and empty,
 * and the whole sandbox killed when its caller goes.
 */
export function bwrapArguments(program: SandboxedProgram, env: Record<string, string>, options: SandboxOptions = {}): string[] {
  const args = [
    '--unshare-all', ...(options.network ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--clearenv',
    '--ro-bind', '/usr', '/usr', ...systemFolders(),
    // The dynamic loader's list of library folders (a library installed outside the defaults).
    '--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache',
  ]
  if (options.network) for (const file of NETWORK_FILES) args.push('--ro-bind-try', file, file)
  for (const folder of program.binds) args.push('--ro-bind', folder, folder)
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value)
  args.push(
    '--proc', '/proc', '--dev', '/dev',
    '--perms', '1777', '--size', String(SANDBOX_TMP_MB * 1024 * 1024), '--tmpfs', '/tmp',
    '--remount-ro', '/dev', '--remount-ro', '/', '--chdir', '/tmp',
  )
  return args
}

/** Runs a program to its end with no environment; its exit code and stderr (bounded). */
export function runQuietly(
  command: string, args: string[], options: { env?: Record<string, string>, user?: { uid: number, gid: number } } = {},
): Promise<{ code: number | null, stdout: string, stderr: string }> {
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    const child = spawn(command, args, { env: options.env ?? {}, stdio: ['ignore', 'pipe', 'pipe'], timeout: PROBE_TIMEOUT_MS, ...options.user })
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout = (stdout + chunk).slice(-4000) })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-4000) })
    child.on('error', error => resolve({ code: null, stdout, stderr: error.message }))
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

const probes = new Map<string, Promise<IsolationProbe>>()

/**
 * Whether `program` runs in the sandbox here (`probeArgs` make it exit at once), asked once per
 * program and PATH while it works. The reason, when not, is one sentence naming what to install or what failed.
 */
export function probeIsolation(searchPath: string, program: SandboxedProgram, probeArgs: string[]): Promise<IsolationProbe> {
  const key = JSON.stringify([searchPath, program, probeArgs])
  let probe = probes.get(key)
  if (!probe) {
    probe = (async (): Promise<IsolationProbe> => {
      const isolator = findIsolator(searchPath)
      if (!isolator) return { ok: false, reason: noIsolator() }
      const { code, stderr } = await runQuietly(isolator.bwrap, [...bwrapArguments(program, {}), '--', program.command, ...probeArgs], { user: isolator.user })
      if (code === 0) return { ok: true, isolator }
      const said = stderr.trim().split('\n').pop() ?? ''
      const as = isolator.user ? ` as the user nobody (${isolator.user.uid}), which must be able to read ${program.command}` : ''
      return { ok: false, reason: `bubblewrap could not run ${program.command} in a sandbox${as}${said ? ` (${said})` : ''}: the kernel must allow user namespaces to this user` }
    })()
    probes.set(key, probe)
    // Only a sandbox that worked is remembered: a probe that failed (bwrap installed later, a
    // start slowed past its time by a busy machine) is asked again by the next run of code.
    void probe.then((found) => {
      if (!found.ok) probes.delete(key)
    })
  }
  return probe
}

/** The refusal of code that cannot be isolated where isolation is required. */
export function notIsolated(language: string, reason: string) {
  return { message: `The ${language} code was not run, because this server runs user code only in a sandbox and ${reason}.`, reason: 'not-isolated' as const }
}
