import { describe, expect, it } from 'vitest'
import { segments, WINDOW, type Granularity, type Lang } from '../../../engine/evaluator/heuristic/segment'

const distinctNumbers = (count: number, offset: number) => Array.from({ length: count }, (_, i) => String(i * 7 + offset)).join(' ')

/** What `Intl.Segmenter` gives for the whole text at once (slow on long texts, fine on these). */
function direct(text: string, lang: Lang, granularity: Granularity) {
  return [...new Intl.Segmenter(lang, { granularity }).segment(text)].map(s => [s.segment, s.isWordLike ?? false])
}

const english = 'Open Settings and choose "Forgot password". Then follow the emailed link, e.g. the one from support@example.com, which expires in 30 minutes! Why? Because U.S. rules say so... 3.14 and 2,718 are numbers.\n- step one: do it\n1. Next step\n\n'
const japanese = '設定画面を開き、『パスワードを忘れた』を選んで、メールのリンクから新しいパスワードを設定してください。ヘルプセンターにお問い合わせください！'
const mixed = 'ＦＵＬＬ－ＷＩＤＴＨ text 👩‍💻 emoji 🇯🇵🇫🇷 flags and कथा and ภาษาไทย ' + 'x'.repeat(1500) + ' tail. '

describe('segmentation in windows', () => {
  const cases: [string, string, Lang][] = [
    ['English with line breaks', english.repeat(40), 'en'],
    ['English on one long line', english.replace(/\n/g, ' ').repeat(40), 'en'],
    ['Japanese without spaces or line breaks', japanese.repeat(60), 'ja'],
    ['numbers', distinctNumbers(3000, 1), 'en'],
    ['scripts, emoji and a run longer than a window', mixed.repeat(8), 'en'],
  ]
  for (const [name, text, lang] of cases) {
    it(`gives the same words and sentences as one pass: ${name}`, () => {
      expect(text.length).toBeGreaterThan(3 * WINDOW)
      for (const granularity of ['word', 'sentence'] as const) {
        expect([...segments(text, lang, granularity)].map(s => [s.segment, s.isWordLike])).toEqual(direct(text, lang, granularity))
      }
    })
  }
})
