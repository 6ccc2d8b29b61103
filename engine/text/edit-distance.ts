/** Edit distance over code points, two rows of memory. Browser-safe: the schemas use it for "did you mean". */
export function levenshteinDistance(a: string, b: string): number {
  const s = codePoints(a)
  const t = codePoints(b)
  if (!s.length) return t.length
  if (!t.length) return s.length
  let previous = Uint32Array.from({ length: t.length + 1 }, (_, j) => j)
  let current = new Uint32Array(t.length + 1)
  for (let i = 1; i <= s.length; i++) {
    current[0] = i
    const char = s[i - 1]
    for (let j = 1; j <= t.length; j++) {
      let best = previous[j - 1]! + (char === t[j - 1] ? 0 : 1)
      if (previous[j]! + 1 < best) best = previous[j]! + 1
      if (current[j - 1]! + 1 < best) best = current[j - 1]! + 1
      current[j] = best
    }
    [previous, current] = [current, previous]
  }
  return previous[t.length]!
}

const codePoints = (text: string) => Uint32Array.from(text, char => char.codePointAt(0)!)

/** The known name closest to a misspelt one, when it is close enough to be a typo (a key, a flag, a command). */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string, distance: number } | undefined
  for (const candidate of known) {
    const distance = levenshteinDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance <= Math.max(2, Math.floor(candidate.length / 4)) && (!best || distance < best.distance)) best = { key: candidate, distance }
  }
  return best?.key
}
