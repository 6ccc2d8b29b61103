import { jsonOf } from '../data'
import { defineScorer } from '../types'

/** Leaf values by JSON path. */
function leaves(value: unknown, path = '$', out = new Map<string, string>()): Map<string, string> {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [`.${k}`, v] as const)
    if (!entries.length) out.set(path, JSON.stringify(value))
    for (const [key, child] of entries) leaves(child, `${path}${key}`, out)
  }
  else out.set(path, JSON.stringify(value))
  return out
}

function diff(actual: unknown, expected: unknown) {
  const a = jsonOf(actual)
  const e = jsonOf(expected)
  if (!a.ok || !e.ok) return { score: 0, differences: [`not valid JSON: ${a.ok ? '' : `actual (${a.error})`}${e.ok ? '' : ` expected (${e.error})`}`.trim()] }
  const left = leaves(a.value)
  const right = leaves(e.value)
  const paths = new Set([...left.keys(), ...right.keys()])
  const differences: string[] = []
  for (const path of paths) {
    if (!left.has(path)) differences.push(`${path}: missing (expected ${right.get(path)})`)
    else if (!right.has(path)) differences.push(`${path}: unexpected ${left.get(path)}`)
    else if (left.get(path) !== right.get(path)) differences.push(`${path}: ${left.get(path)} instead of ${right.get(path)}`)
  }
  return { score: paths.size ? Math.round((1 - differences.length / paths.size) * 1e6) / 1e6 : 1, differences }
}

export const jsonDiff = defineScorer({
  type: 'json-diff',
  label: 'JSON diff',
  description: 'Share of the JSON leaf values (by path) that equal the expected JSON.',
  defaultThreshold: 1,
  input: 'json',
  analyze(actual, expected) {
    const { score, differences } = diff(actual, expected)
    return { score, differences: differences.slice(0, 50), total_differences: differences.length }
  },
})
