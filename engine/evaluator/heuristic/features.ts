/**
 * Text features for the offline judge: tokens, terms, sentences, structure and tone signals,
 * for English and Japanese. Every function is pure; the segmenters are the only shared state.
 */
import { segments, type Lang } from './segment'

export type { Lang } from './segment'

export interface Structure { paragraphs: number, bullets: number, numbered: number, headings: number }
export interface Actionable { numbers: number, imperatives: number, examples: number, steps: number }

export interface TextFeatures {
  lang: Lang
  words: string[]
  terms: Set<string>
  sentences: string[]
  /** Per sentence: words (English) or characters without spaces (Japanese). */
  sentenceLengths: number[]
  /** Sentences that are list items or headings, where short is fine. */
  listLike: boolean[]
  /** Words (English) or characters without spaces (Japanese). */
  size: number
  structure: Structure
  /** 0..1: share of repeated sentences or repeated word trigrams, whichever is higher. */
  repetition: number
  numbers: string[]
  polite: string[]
  rude: string[]
  shouting: string[]
  refusals: string[]
  hedges: string[]
  connectives: string[]
  actionable: Actionable
}

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u
const KANJI_OR_KATAKANA_RUN = /[\p{Script=Katakana}\p{Script=Han}ー]{2,}/gu
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u
const LIST_MARKER = /^\s*(?:[-*•・●]|\d{1,3}[.)、．]|[a-z][.)]|[①-⑳])\s*/iu
const HEADING = /^\s*(?:#{1,6}\s+\S|[^\n]{1,60}[:：]\s*$)/u

const EN_STOPWORDS = new Set(`a an the and or but if then so of to in on at by for with from into onto about as is are was were be been being am
do does did done have has had having i me my mine we us our you your yours he him his she her it its they them their this that these those
there here what which who whom whose when where why how can could would should will shall may might must not no yes just very also too
than more most some any all each every other such only own same again once up down out over under off please tell know want need get
let like way thing things one s t don doesn didn isn aren wasn weren won can't don't i'm it's that's`.split(/\s+/))

const JA_STOPWORDS = new Set(`は が を に で と の も へ や か な ね よ わ から まで より って て た だ し で ので のに けど けれど
です でし ます まし ませ ん くだ さい ください する し して します しま しょう ある あり いる い なる なり れる られ こと もの ため よう
これ それ あれ この その あの ここ そこ どこ どう どの 何 なぜ いつ 方法 仕方 やり方 教え 教えて 知り たい お ご んで`.split(/\s+/))

const POLITE = /\b(?:please|thank(?:s| you)|you're welcome|happy to help|glad to help|hope this helps|feel free|sorry|kindly|i'd be happy)\b|ください|ございます|お願い(?:します|いたします)|ありがとう|恐れ入り|申し訳|幸いです|お手数/giu
const RUDE = /\b(?:stupid|idiot(?:ic)?|dumb|moron(?:ic)?|shut up|pathetic|ridiculous|nonsense|useless|lazy|obviously|figure it out yourself|google it|rtfm|wtf|crap|damn|loser)\b|バカ|ばか|馬鹿|アホ|あほ|うるさい|黙れ|くだらない|知るか|自分で調べろ|てめえ|お前/giu
const REFUSAL = /\b(?:i can(?:'|’)?t help(?! but)|i cannot help(?! but)|i can(?:'|’)?t assist|i cannot assist|i(?:'|’)?m (?:not able|unable) to|i am (?:not able|unable) to|i won(?:'|’)?t (?:help|answer|provide)|as an ai\b|as a (?:large )?language model|i cannot provide|i can(?:'|’)?t provide)|お答えできません|お答えすることはできません|お手伝いできません|回答できません|答えられません|できません/giu
const HEDGE = /\b(?:maybe|perhaps|probably|possibly|i think|i guess|i'm not sure|not sure|might|may be)\b|かもしれ|たぶん|多分|おそらく|と思います|わかりません|分かりません/giu
const CONNECTIVE = /\b(?:because|so that|therefore|however|first(?:ly)?|second(?:ly)?|then|next|finally|also|for example|for instance|as a result|in addition|this means|instead|otherwise|since)\b|まず|次に|そして|また|しかし|ただし|そのため|なので|つまり|例えば|たとえば|最後に|さらに|その後/giu
const EXAMPLE = /\b(?:for example|for instance|e\.g\.|such as)|例えば|たとえば|例[:：]/giu
const STEP_WORD = /\b(?:first|then|next|after that|finally|step \d+)\b|まず|次に|その後|最後に|手順/giu
const IMPERATIVE_JA = /(?:て|で)(?:ください|下さい)|しましょう|してみて|すること/gu
const IMPERATIVE_EN = new Set(`use run set open click go select choose enter type install add remove check create follow try make press navigate restart
update change reset configure visit contact see call tap sign log copy paste save delete enable disable write read start stop replace
look find ask send download upload verify confirm keep avoid`.split(/\s+/))
const CLAUSE_LEAD = /^(?:(?:please|then|and|first|next|finally|now|also|just|simply|to \w+(?: \w+){0,3}),?\s+)+/i
const ACRONYMS = new Set(['HTTP', 'HTTPS', 'HTML', 'JSON', 'YAML', 'UUID', 'OAUTH', 'ASCII', 'UTF8', 'NULL', 'TODO', 'NOTE', 'SQL', 'REST', 'AWS', 'IPV4', 'IPV6'])

/** NFKC folds full-width letters and digits, so 'ｐａｓｓ１' and 'pass1' compare equal. */
export const normalize = (text: string) => text.normalize('NFKC')
export const detectLang = (text: string): Lang => (JAPANESE.test(text) ? 'ja' : 'en')

export function words(text: string, lang = detectLang(text)): string[] {
  const out: string[] = []
  for (const s of segments(normalize(text), lang, 'word')) if (s.isWordLike) out.push(s.segment.toLowerCase())
  return out
}

/** A light English stemmer so 'resetting', 'resets' and 'reset' meet; it only strips a suffix when three letters remain. */
export function stem(word: string): string {
  if (!/^[a-z]{4,}$/.test(word)) return word
  const strip = (suffix: string, add = '') => word.slice(0, -suffix.length) + add
  let out = word
  if (word.endsWith('ies')) out = strip('ies', 'y')
  else if (word.endsWith('ing')) out = strip('ing')
  else if (word.endsWith('ed')) out = strip('ed')
  else if (/(?:s|x|ch|sh|z)es$/.test(word)) out = strip('es')
  else if (word.endsWith('s') && !word.endsWith('ss')) out = strip('s')
  if (out.length < 3) return word
  return /([^aeiouls])\1$/.test(out) ? out.slice(0, -1) : out
}

const isStopword = (word: string) => EN_STOPWORDS.has(word) || JA_STOPWORDS.has(word) || (HIRAGANA_ONLY.test(word) && word.length < 2)

/** Content terms; Japanese adds kanji/katakana bigrams so a match still counts where segmentation differs. */
export function contentTerms(text: string, lang = detectLang(text), wordList = words(text, lang)): Set<string> {
  const terms = new Set<string>()
  for (const word of wordList) if (!isStopword(word)) terms.add(stem(word))
  if (lang === 'ja') {
    for (const [run] of normalize(text).matchAll(KANJI_OR_KATAKANA_RUN)) {
      for (let i = 0; i + 2 <= run.length; i++) terms.add(run.slice(i, i + 2))
    }
  }
  return terms
}

/** Sentence segments with their trailing spaces, a bare list marker ('1. ') joined to the item it introduces. */
export function sentenceSegments(text: string, lang = detectLang(text)): string[] {
  const out: string[] = []
  let pending = ''
  for (const { segment } of segments(normalize(text), lang, 'sentence')) {
    pending += segment
    if (!(LIST_MARKER.test(pending) && pending.replace(LIST_MARKER, '').trim() === '')) {
      out.push(pending)
      pending = ''
    }
  }
  if (pending) out.push(pending)
  return out
}

export const sentences = (text: string, lang = detectLang(text)) => sentenceSegments(text, lang).map(s => s.trim()).filter(Boolean)

const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map(m => m[0])
const sentenceLength = (sentence: string, lang: Lang) => (lang === 'ja' ? sentence.replace(/\s/g, '').length : words(sentence, lang).length)

function structureOf(text: string): Structure {
  const lines = text.split('\n')
  return {
    paragraphs: text.split(/\n\s*\n/).filter(p => p.trim()).length,
    bullets: lines.filter(l => /^\s*[-*•・●]\s+\S/u.test(l)).length,
    numbered: lines.filter(l => /^\s*(?:\d{1,3}[.)、．]|[①-⑳])\s*\S/u.test(l)).length,
    headings: lines.filter(l => /^\s*#{1,6}\s+\S/.test(l)).length,
  }
}

function repetitionOf(sentenceList: string[], wordList: string[]): number {
  const key = (s: string) => s.toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim()
  const sentenceShare = sentenceList.length ? 1 - new Set(sentenceList.map(key)).size / sentenceList.length : 0
  const trigrams = wordList.slice(2).map((w, i) => `${wordList[i]} ${wordList[i + 1]} ${w}`)
  const trigramShare = trigrams.length ? 1 - new Set(trigrams).size / trigrams.length : 0
  return Math.max(sentenceShare, trigramShare)
}

function imperativesOf(sentenceList: string[], lang: Lang): number {
  if (lang === 'ja') return sentenceList.reduce((n, s) => n + matches(s, IMPERATIVE_JA).length, 0)
  let count = 0
  for (const sentence of sentenceList) {
    for (const clause of sentence.replace(LIST_MARKER, '').split(/[,;:]|\band\b|\bthen\b/i)) {
      const first = clause.trim().replace(CLAUSE_LEAD, '').split(/\s+/)[0]?.toLowerCase()
      if (first && IMPERATIVE_EN.has(first)) count++
    }
  }
  return count
}

export function analyze(raw: string): TextFeatures {
  const text = normalize(raw)
  const lang = detectLang(text)
  const wordList = words(text, lang)
  const sentenceList = sentences(text, lang)
  const structure = structureOf(text)
  const numbers = matches(text, /\d+(?:[.,]\d+)*/g).map(n => n.replace(/,/g, ''))
  const shouting = [
    ...(text.match(/\b[A-Z]{4,}\b/g) ?? []).filter(w => !ACRONYMS.has(w)),
    ...(text.match(/[!！?？]{3,}|[!！]{2,}/g) ?? []),
  ]
  return {
    lang,
    words: wordList,
    terms: contentTerms(text, lang, wordList),
    sentences: sentenceList,
    sentenceLengths: sentenceList.map(s => sentenceLength(s.replace(LIST_MARKER, ''), lang)),
    listLike: sentenceList.map(s => LIST_MARKER.test(s) || HEADING.test(s)),
    size: lang === 'ja' ? text.replace(/\s/g, '').length : wordList.length,
    structure,
    repetition: repetitionOf(sentenceList, wordList),
    numbers,
    polite: matches(text, POLITE),
    rude: matches(text, RUDE),
    shouting,
    refusals: matches(text, REFUSAL),
    hedges: matches(text, HEDGE),
    connectives: matches(text, CONNECTIVE),
    actionable: {
      numbers: numbers.length,
      imperatives: imperativesOf(sentenceList, lang),
      examples: matches(text, EXAMPLE).length,
      steps: matches(text, STEP_WORD).length + structure.numbered + structure.bullets,
    },
  }
}

/** Share of `wanted` found in `have`; undefined when nothing is wanted. */
export function recall(wanted: Set<string>, have: Set<string>): number | undefined {
  if (!wanted.size) return undefined
  let found = 0
  for (const term of wanted) if (have.has(term)) found++
  return found / wanted.size
}

/** Terms of `wanted` not in `have`; a Japanese bigram inside a longer missing term is left out so the list reads as words. */
export function missingTerms(wanted: Set<string>, have: Set<string>): string[] {
  const missing = [...wanted].filter(t => !have.has(t))
  const inside = new Set<string>()
  for (const term of missing) for (let i = 0; term.length > 2 && i + 2 <= term.length; i++) inside.add(term.slice(i, i + 2))
  return missing.filter(t => !inside.has(t))
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

/** 0..1: sentences inside the comfortable band score 1; long ones fall off steeply, short ones gently (list items and headings may be short). */
export function sentenceLengthScore(f: TextFeatures): number {
  const [low, high] = f.lang === 'ja' ? [15, 60] : [8, 25]
  return mean(f.sentenceLengths.map((n, i) => {
    if (n > high) return Math.max(0.1, 1 - (n - high) / (2 * high))
    if (n < low && !f.listLike[i]) return 0.7 + (0.3 * n) / low
    return 1
  }))
}

/** 0..1 from instructions, numbers, examples and steps; any two kinds of signal already make an answer fairly actionable. */
export function actionability({ actionable: a }: TextFeatures): number {
  return Math.min(1, Math.min(0.4, 0.2 * a.imperatives) + (a.numbers ? 0.15 : 0) + (a.examples ? 0.2 : 0) + (a.steps ? 0.25 : 0))
}

/** 0..1 from connectives and sentences that pick up the previous sentence's terms, minus repetition. */
export function coherence(f: TextFeatures): number {
  const terms = f.sentences.map(s => contentTerms(s, f.lang))
  const linked = terms.slice(1).filter((t, i) => [...t].some(term => terms[i]!.has(term))).length
  const flow = terms.length > 1 ? linked / (terms.length - 1) : 0.5
  return Math.min(1, Math.max(0, 0.6 + Math.min(0.25, 0.08 * f.connectives.length) + 0.15 * flow - 0.7 * f.repetition))
}
