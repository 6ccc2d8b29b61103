/**
 * Where things are in JSON text, for messages that name a line: JSON.parse tells nothing of
 * positions, and a second parser only to count lines would cost more than the first. Both
 * functions expect text JSON.parse has accepted.
 */

/**
 * The offsets at which the items of a list begin: the top-level array's, or with `key` the array
 * that the top-level object holds under that key. Empty when there is no such list.
 */
export function jsonListItemOffsets(text: string, key?: string): number[] {
  const offsets: number[] = []
  const listDepth = key === undefined ? 1 : 2
  let depth = 0
  let inList = false
  let itemNext = false
  let keyNext = false
  let lastKey: string | undefined
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue
    if (inList && itemNext && depth === listDepth && c !== ']') {
      offsets.push(i)
      itemNext = false
    }
    if (c === '"') {
      const end = stringEnd(text, i)
      if (keyNext && depth === 1) lastKey = JSON.parse(text.slice(i, end + 1)) as string
      keyNext = false
      i = end
    }
    else if (c === '[' || c === '{') {
      depth++
      if (depth === 1 && c === '{') keyNext = true
      if (depth === listDepth && c === '[' && (key === undefined || lastKey === key)) inList = itemNext = true
    }
    else if (c === ']' || c === '}') {
      if (depth === listDepth && inList) return offsets
      depth--
    }
    else if (c === ',') {
      if (depth === 1) keyNext = true
      if (inList && depth === listDepth) itemNext = true
    }
  }
  return offsets
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') i++
    else if (c === '"') return i
  }
  return text.length - 1
}

/** A function from offsets in `text` to 1-based line numbers; the line starts are found once. */
export function lineFinder(text: string): (offset: number) => number {
  let starts: number[] | undefined
  return (offset) => {
    if (!starts) {
      starts = [0]
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
    }
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
}
