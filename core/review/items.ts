/**
 * A review queue's items from where they come (engine/review/schema.ts, ItemSource): each a snapshot
 * of what was judged — the input, the output, its context — and what the judge said of it.
 */
import { JudgeflowError } from '../../engine/errors'
import type { CaseResult, DatasetCase } from '../../engine/datasets/schema'
import { mulberry32 } from '../../engine/datasets/stats'
import type { ItemSource } from '../../engine/review/schema'
import type { NewReviewItem, ReviewJudge } from '../review-rows'
import type { Store } from '../store'

type From<K extends ItemSource['from']> = Extract<ItemSource, { from: K }>

/** The items the source names; a source that is not there is a 400 naming the field, under `at` (the source's path in the body). */
export async function itemsFrom(store: Store, source: ItemSource, at = ''): Promise<NewReviewItem[]> {
  const missing = (field: string, what: string, id: string) => new JudgeflowError('INVALID_INPUT', `${at}${field}: no ${what} with id "${id}"`)
  switch (source.from) {
    case 'dataset_run': return datasetRunItems(store, source, missing)
    case 'runs': return runItems(store, source, missing)
    case 'online': return onlineItems(store, source, missing)
  }
}

type Missing = (field: string, what: string, id: string) => JudgeflowError

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null)
const str = (x: unknown) => (typeof x === 'string' ? x : null)

/** The dataset run's cases the selection picks: one item per case (its first judged repeat), in the dataset's order. */
async function datasetRunItems(store: Store, source: From<'dataset_run'>, missing: Missing): Promise<NewReviewItem[]> {
  const run = await store.datasets.getRunSummary(source.dataset_run_id)
  if (!run) throw missing('dataset_run_id', 'dataset run', source.dataset_run_id)
  const dataset = await store.datasets.get(run.datasetId, run.datasetVersion)
  const cases = new Map<string, DatasetCase>((dataset?.cases as DatasetCase[] | undefined ?? []).map(c => [c.id, c]))
  const order = [...cases.keys()]
  const byCase = new Map<string, CaseResult[]>()
  for (const row of await store.datasets.runCases(run.id)) {
    const result = row.result as CaseResult | null
    if (!result?.verdict) continue
    byCase.set(row.caseId, [...(byCase.get(row.caseId) ?? []), result].sort((a, b) => a.repeat - b.repeat))
  }
  const judged = [...byCase.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b))
  const picked = pickCases(judged, byCase, source)
  return picked.map((caseId) => {
    const result = byCase.get(caseId)![0]!
    const given = cases.get(caseId)
    return {
      source: { kind: 'dataset_run_case', dataset_run_id: run.id, case_id: caseId, repeat: result.repeat },
      input: given?.input ?? null,
      output: result.output ?? given?.output ?? null,
      context: given?.input.context ?? null,
      judge: {
        verdict: result.verdict ?? null, score: result.score ?? null, confidence: result.confidence ?? null,
        reason: result.reason ?? null, fingerprint: result.judge_fingerprint ?? null, fingerprint_parts: result.judge_fingerprint_parts ?? null,
      },
    }
  })
}

function pickCases(judged: string[], byCase: Map<string, CaseResult[]>, source: From<'dataset_run'>): string[] {
  const first = (id: string) => byCase.get(id)![0]!
  switch (source.select) {
    case 'all': return judged
    case 'failed': return judged.filter(id => first(id).verdict === 'fail')
    case 'low_confidence': return judged.filter(id => (first(id).confidence ?? 1) < source.max_confidence)
    case 'disagreeing': return judged.filter((id) => {
      const results = byCase.get(id)!
      return new Set(results.map(r => r.verdict)).size > 1 || results.some(r => r.panel !== undefined && r.panel.agreement < 1)
    })
    case 'sample': {
      // A seeded Fisher–Yates shuffle: the same seed picks the same cases; kept in the dataset's order.
      const random = mulberry32(source.seed)
      const shuffled = [...judged]
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
      }
      const chosen = new Set(shuffled.slice(0, source.sample_size))
      return judged.filter(id => chosen.has(id))
    }
  }
}

/** Runs picked on the runs page: the run's input and output, and its last evaluator step's verdict. */
async function runItems(store: Store, source: From<'runs'>, missing: Missing): Promise<NewReviewItem[]> {
  const items: NewReviewItem[] = []
  for (const [n, runId] of source.run_ids.entries()) {
    const run = await store.runs.get(runId)
    if (!run) throw missing(`run_ids.${n}`, 'run', runId)
    const nodes = (run.definition.nodes ?? []) as Array<{ id?: unknown, type?: unknown }>
    const evaluators = new Set(nodes.filter(node => node.type === 'evaluator').map(node => node.id))
    const steps = await store.runs.steps(runId)
    const judged = steps.filter(step => evaluators.has(step.nodeId) && step.status === 'succeeded').at(-1)
    items.push({ source: { kind: 'run', run_id: runId }, input: run.input ?? null, output: run.output ?? null, context: null, judge: judgeOfStep(run.verdict, judged?.output) })
  }
  return items
}

function judgeOfStep(runVerdict: string | null, output: unknown): ReviewJudge | null {
  const evaluation = (output ?? {}) as Record<string, unknown>
  const passed = typeof evaluation.passed === 'boolean' ? (evaluation.passed ? 'pass' : 'fail') : null
  const verdict = runVerdict ?? passed
  if (verdict === null && output === undefined) return null
  return {
    verdict, score: num(evaluation.overall_score), confidence: num(evaluation.confidence),
    reason: str(evaluation.feedback), fingerprint: str(evaluation.judge_fingerprint),
    fingerprint_parts: ((evaluation.judge as { fingerprint_parts?: Record<string, string> } | undefined)?.fingerprint_parts ?? null),
  }
}

/** An online rule's scored (or failed) decisions, newest first, with their spans' whole input and output. */
async function onlineItems(store: Store, source: From<'online'>, missing: Missing): Promise<NewReviewItem[]> {
  if (!(await store.online.getRule(source.rule_id))) throw missing('rule_id', 'online rule', source.rule_id)
  const decisions = await store.online.decisions({ ruleId: source.rule_id, status: source.status, limit: source.limit })
  const items: NewReviewItem[] = []
  for (const decision of decisions) {
    if (source.max_score !== undefined && (decision.score === null || decision.score > source.max_score)) continue
    const span = await store.online.getSpan(decision.traceId, decision.spanId)
    items.push({
      source: { kind: 'online', rule_id: decision.ruleId, trace_id: decision.traceId, span_id: decision.spanId },
      input: span?.inputText ?? null,
      output: span?.outputText ?? null,
      context: span?.systemInstructions ? { system_instructions: span.systemInstructions } : null,
      judge: { verdict: decision.verdict, score: decision.score, confidence: null, reason: decision.reason, fingerprint: null },
    })
  }
  return items
}
