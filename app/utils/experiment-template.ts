/**
 * A new experiment in the suggested shape: 2 documents of different domains, 10
 * problems each (3 critical, 4 major, 3 minor; 6 main, 2 adjacent, 2 subtle), 3 bonus candidates
 * per document, 2 runs per document per variant. Every count is a starting point to edit.
 */
/** The step an experiment varies: a stored workflow (its id or name), the step, the run input field fed each document. */
export interface ExperimentTarget { workflow_id: string, node: string, input_field: string }

export function experimentTemplate(target: ExperimentTarget = { workflow_id: 'Reviewer', node: 'review', input_field: 'document' }): string {
  const severities = ['critical', 'critical', 'critical', 'major', 'major', 'major', 'major', 'minor', 'minor', 'minor']
  const categories = ['main', 'main', 'main', 'main', 'main', 'main', 'adjacent', 'adjacent', 'subtle', 'subtle']
  const document = (id: string, letter: string) => [
    `  - id: ${id}`,
    `    title: A document from a second domain`.replace('a second', letter === 'A' ? 'a first' : 'a second'),
    '    text: |',
    '      Paste the document under review here.',
    '    problems:',
    ...severities.map((severity, i) => `      - { id: ${letter}${i + 1}, category: ${categories[i]}, severity: ${severity}, criteria: "what a finding must say to count as ○" }`),
    '    bonus_candidates: ["a useful finding outside the key", "another one", "a third"]',
  ]
  return [
    'name: New experiment',
    'scope: |',
    '  In scope: … (what earns a bonus). Out of scope: … (what earns a penalty).',
    'target:',
    `  workflow_id: ${JSON.stringify(target.workflow_id)}   # the stored workflow whose step is varied`,
    `  node: ${JSON.stringify(target.node)}   # that step`,
    `  input_field: ${JSON.stringify(target.input_field)}   # the run input field that receives each document`,
    'current_best: v1',
    'runs_per_document: 2',
    'judge_model: local:heuristic   # or manual, or a provider model such as openai:gpt-4o-mini',
    'variants:',
    '  - id: v1',
    '    config: {}',
    '  - id: v2',
    '    config:',
    `      prompt: "A new prompt: {{input.${target.input_field}}}"`,
    'documents:',
    ...document('doc-1', 'A'),
    ...document('doc-2', 'B'),
    '',
  ].join('\n')
}
