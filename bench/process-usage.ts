/**
 * CPU time and peak memory of this process and the processes it started (workers, PostgreSQL and
 * its backends, the fake LLM server), read from /proc: where a benchmark's CPU goes. Linux only;
 * elsewhere `sample` finds nothing beyond this process.
 */
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcessSample {
  pid: number
  /** What the process is, from its command line (`classify`). */
  kind: string
  /** User and system CPU time so far, ms. */
  cpuMs: number
  /** Peak resident set size, MiB. */
  peakRssMiB: number
}

const TICK_MS = 10

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  }
  catch {
    return null
  }
}

/** This process and every descendant alive now, each with what `classify` says it is. */
export function sample(classify: (commandLine: string) => string): ProcessSample[] {
  const parents = new Map<number, number>()
  let pids: number[] = []
  try {
    pids = readdirSync('/proc').filter(name => /^\d+$/.test(name)).map(Number)
  }
  catch {
    // no /proc: only this process
  }
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`)
    if (stat) parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
  }
  const mine = new Set([process.pid])
  for (let grew = true; grew;) {
    grew = false
    for (const [pid, parent] of parents) {
      if (!mine.has(pid) && mine.has(parent)) {
        mine.add(pid)
        grew = true
      }
    }
  }
  const samples: ProcessSample[] = []
  for (const pid of mine) {
    const stat = read(`/proc/${pid}/stat`)
    const status = read(`/proc/${pid}/status`)
    if (pid !== process.pid && (!stat || !status)) continue
    const fields = stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : []
    const cpuMs = pid === process.pid && !stat
      ? (process.cpuUsage().user + process.cpuUsage().system) / 1000
      : (Number(fields[11]) + Number(fields[12])) * TICK_MS
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status ?? '')
    const peakRssMiB = hwm ? Number(hwm[1]) / 1024 : process.resourceUsage().maxRSS / 1024
    const commandLine = (read(`/proc/${pid}/cmdline`) ?? '').replaceAll('\0', ' ').trim()
    samples.push({ pid, kind: pid === process.pid ? 'driver' : classify(commandLine), cpuMs, peakRssMiB })
  }
  return samples
}

/** CPU ms spent by each kind of process between two samples (processes that ended meanwhile are not counted). */
export function cpuByKind(before: ProcessSample[], after: ProcessSample[]): Map<string, number> {
  const start = new Map(before.map(s => [s.pid, s.cpuMs]))
  const spent = new Map<string, number>()
  for (const s of after) spent.set(s.kind, (spent.get(s.kind) ?? 0) + s.cpuMs - (start.get(s.pid) ?? 0))
  return spent
}

/** The largest peak RSS of each kind of process, MiB. */
export function peakRssByKind(samples: ProcessSample[]): Map<string, number> {
  const peaks = new Map<string, number>()
  for (const s of samples) peaks.set(s.kind, Math.max(peaks.get(s.kind) ?? 0, s.peakRssMiB))
  return peaks
}
