import type { PromptfooImport } from '../../engine/datasets/promptfoo'
import type { Workflow } from '../../engine/schema/workflow'

/** What the import dialog reads of POST /api/datasets/import-promptfoo's answer (dataset-api.ts types it whole). */
export interface ImportParts {
  dataset: { name: string, case_count: number }
  workflow?: Workflow
  evaluator: PromptfooImport['evaluator']
  evaluators: PromptfooImport['evaluators']
  notes: string[]
}

/** What each part of an imported promptfoo config became, one line each, as the import dialog lists them. */
export function convertedLines(answer: ImportParts): string[] {
  const { dataset, workflow, evaluators, evaluator } = answer
  const cells = workflow?.nodes.filter(n => n.type !== 'input' && n.type !== 'evaluator' && n.type !== 'output').length ?? 0
  const lines = [`Tests → dataset "${dataset.name}": ${dataset.case_count} case${dataset.case_count === 1 ? '' : 's'}${cells > 1 ? ', one per test × prompt · provider' : ''}`]
  if (workflow) lines.push(`Prompts × providers → workflow "${workflow.name}": ${workflow.nodes.map(n => (n.id === n.type ? n.id : `${n.id} (${n.type})`)).join(', ')}`)
  const grader = typeof evaluator?.model === 'string' ? `; model-graded ones by ${evaluator.model}` : ''
  const judged = evaluators.map(e => `${e.id} judge ${e.cases} case${e.cases === 1 ? '' : 's'}`).join(', ')
  if (judged) lines.push(`Assertions → each case keeps its own, graded as promptfoo grades them: ${judged}${grader}`)
  return lines
}
