/**
 * Word and sentence segmentation with `Intl.Segmenter`, piece by piece.
 *
 * V8's segment iterator costs time in proportion to the length of the whole text at every step,
 * so iterating one long text is quadratic (20,000 words take seconds, a long Japanese text
 * minutes). Segmenting windows of at most WINDOW characters keeps it linear, and gives the same
 * segments: a window ends after a line break where it can (a hard break for words and
 * sentences alike), else before a space or after CJK punctuation (where a word always ends); its
 * last segment, which may be cut short by the window, is segmented again at the start of the next.
 */
export type Lang = 'en' | 'ja'
export type Granularity = 'word' | 'sentence'

export interface Segment { segment: string, isWordLike: boolean }

/** Small enough that one window costs little, large enough that windows are few. */
export const WINDOW = 1024

const segmenters = new Map<string, Intl.Segmenter>()
function segmenter(lang: Lang, granularity: Granularity): Intl.Segmenter {
  const key = `${lang}:${granularity}`
  let found = segmenters.get(key)
  if (!found) segmenters.set(key, found = new Intl.Segmenter(lang, { granularity }))
  return found
}

const SPACE = /\s/u
const CJK_STOP = /[。、！？]/u

/**
 * Where a window of about `size` characters from `start` should end: after a line break, else
 * before a space or after CJK punctuation, else at its full length.
 */
function windowEnd(text: string, start: number, size: number): number {
  const limit = start + size
  if (limit >= text.length) return text.length
  const floor = start + size / 2
  const newline = text.lastIndexOf('\n', limit - 1)
  if (newline >= floor) return newline + 1
  for (let i = limit; i > floor; i--) {
    if (SPACE.test(text[i]!) && !SPACE.test(text[i - 1]!)) return i
    if (CJK_STOP.test(text[i - 1]!)) return i
  }
  // Not between the two halves of a surrogate pair.
  return /[\uD800-\uDBFF]/.test(text[limit - 1]!) ? limit - 1 : limit
}

/** The segments of `text`, in order, as `Intl.Segmenter` gives them, in linear time. */
export function* segments(text: string, lang: Lang, granularity: Granularity): Generator<Segment> {
  const engine = segmenter(lang, granularity)
  let start = 0
  let size = WINDOW
  while (start < text.length) {
    const end = windowEnd(text, start, size)
    const found: Segment[] = []
    let cut = end < text.length
    for (const { segment, isWordLike } of engine.segment(text.slice(start, end))) {
      found.push({ segment, isWordLike: isWordLike ?? false })
      // A window grown for one long segment is needed only up to the start of the next.
      if (size > WINDOW && found.length === 2) {
        cut = true
        break
      }
    }
    if (cut && found.length === 1) {
      // One segment fills the window and may go on: look further.
      size *= 2
      continue
    }
    // The last segment may go on past the window: it is segmented again with what follows.
    if (cut) found.pop()
    yield* found
    for (const { segment } of found) start += segment.length
    size = WINDOW
  }
}
