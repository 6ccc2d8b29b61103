/**
 * Prompt injection aimed at the judge: text in the evaluated content that tells the evaluator
 * what to do or what score to give. Matching is on NFKC text, so full-width letters are caught too.
 * Words that also occur in honest answers ('disregard', 'system prompt', '満点', 'you are now', 'score: 100')
 * only count in a judge-directed form, to keep false positives rare.
 */
import { normalize, sentenceSegments } from './features'

const GIVE_JA = '(?:を|に|で)?(?:つけ|付け|与え|ください|下さい|して|しろ|せよ|出して|お願い)'

const PATTERNS: RegExp[] = [
  // English: overriding the instructions
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|my|these|those)\s+)*(?:(?:previous|prior|above|earlier|preceding|former|original|system|judging|grading|evaluation|scoring)\s+)?(?:instructions?|prompts?|rules|directions|guidelines|criteria|rubric)\b/giu,
  /\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:above|before|previously said)\b/giu,
  /\byou are now (?:an?|the|acting as|in)\s+(?:\w+\s+){0,3}?(?:judge|evaluator|grader|assistant|model|ai|mode|persona)\b/giu,
  /\byou are now (?:dan|jailbroken|unrestricted)\b/giu,
  /\b(?:new|updated|override|reveal|ignore) (?:the |your )?system prompt\b|\bsystem prompt\s*:|\[\s*system\s*\]|<\s*system\s*>/giu,
  /\b(?:note|message|instructions?) (?:to|for) (?:the )?(?:ai |llm )?(?:judge|evaluator|grader)\b/giu,
  // English: dictating the score
  /\b(?:give|assign|award|grant)\s+(?:\w+\s+){0,4}?(?:a\s+)?(?:perfect|full|maximum|max|highest|top)\s+(?:score|marks?|rating|grade|points)\b/giu,
  /\b(?:rate|score|grade|mark)\s+(?:\w+\s+){0,3}?(?:10\s*\/\s*10|100\s*\/\s*100|5\s*\/\s*5|100\s*%|1\.0\b)/giu,
  /\b(?:score|rating|grade)\s*[:=]\s*(?:1\.0+|10\s*\/\s*10|100\s*\/\s*100|5\s*\/\s*5|100\s*%)(?![\d.])/giu,
  /\b(?:this|the) (?:answer|response|text|output) (?:deserves|should (?:get|receive)|must (?:get|receive)) (?:a |the )?(?:perfect|full|maximum|highest|top|10|100)\b/giu,
  // Japanese
  /(?:以前|前|これまで|上記|先ほど|今まで|全て|すべて)の(?:全ての|すべての)?(?:指示|命令|プロンプト|ルール|指令)/gu,
  /(?:指示|命令|プロンプト|ルール)を(?:全て|すべて)?無視/gu,
  new RegExp(`満点${GIVE_JA}|(?:評価|採点|スコア|点数)[^。\\n]{0,8}満点`, 'gu'),
  new RegExp(`最高(?:の)?評価${GIVE_JA}`, 'gu'),
  /この(?:テキスト|回答|文章|答え|応答|出力)(?:を|に|は)[^。\n]{0,10}(?:高く評価|満点|最高評価|合格)/gu,
  /(?:今から|これから)あなたは/gu,
  /(?:新しい|以下の|次の)システムプロンプト|システムプロンプト\s*:/gu,
  /(?:評価者|採点者|審査員)(?:への|へ)(?:指示|メッセージ|注意)?/gu,
  // Spanish, French, German
  /\bignora(?:r)?\s+(?:todas\s+)?(?:las\s+)?instrucciones(?:\s+(?:anteriores|previas))?\b/giu,
  /\b(?:puntuaci[oó]n|nota|calificaci[oó]n)\s+(?:perfecta|m[aá]xima)\b/giu,
  /\bignore[zr]?\s+(?:toutes\s+)?(?:les\s+)?instructions(?:\s+(?:pr[ée]c[ée]dentes|ant[ée]rieures))?/giu,
  /\b(?:note|score)\s+(?:parfaite|maximale)\b/giu,
  /\bignorier(?:e|en)?\s+(?:alle\s+)?(?:vorherigen\s+|bisherigen\s+|obigen\s+)?anweisungen\b/giu,
  /\bvolle\s+punktzahl\b/giu,
  // Chinese, Korean
  /忽略(?:之前|以前|上面|先前|所有|以上)的?(?:所有)?(?:指令|指示|说明|提示)/gu,
  /给(?:这个|此|这)?(?:回答|答案|回复)?(?:打)?满分|打满分/gu,
  /이전\s*(?:의\s*)?지시(?:를|사항을)?\s*무시/gu,
]

/** The snippets, in order of appearance, that try to instruct the judge; overlapping matches are merged into one. */
export function findInjections(text: string): string[] {
  const normalized = normalize(text)
  const spans: [number, number][] = []
  for (const pattern of PATTERNS) {
    for (const match of normalized.matchAll(pattern)) spans.push([match.index, match.index + match[0].length])
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  const merged: [number, number][] = []
  for (const [start, end] of spans) {
    const last = merged.at(-1)
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  return [...new Set(merged.map(([start, end]) => normalized.slice(start, end).trim()))]
}

/** The text without the sentences that hold an injection; the rest keeps its layout (NFKC-normalised). */
export function withoutInjections(text: string): string {
  if (!findInjections(text).length) return text
  const kept = sentenceSegments(text).map(segment => (findInjections(segment).length ? segment.slice(segment.trimEnd().length) : segment))
  return kept.join('').trim()
}
