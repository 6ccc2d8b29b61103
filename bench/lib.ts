/** Helpers for `npm run bench`: each benchmark prints one JSON line {name, value, unit, target}. */
export interface BenchResult {
  name: string
  value: number
  unit: string
  /** The goal, as text: "<= 0.05", ">= 500" or "= 0"; anything else (e.g. "reported") is a figure without one. */
  target: string
}

export function report(result: BenchResult): void {
  if (!/^[<>]?=/.test(result.target)) return console.log(JSON.stringify({ ...result, value: Number(result.value.toPrecision(4)) }))
  const bound = Number(result.target.replace(/^[<>]?=\s*/, ''))
  const met = result.target.startsWith('<=') ? result.value <= bound : result.target.startsWith('>=') ? result.value >= bound : result.value === bound
  console.log(JSON.stringify({ ...result, value: Number(result.value.toPrecision(4)), met }))
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}
