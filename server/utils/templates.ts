import abTest from '../../examples/ab-test.json'
import feedbackLoop from '../../examples/feedback-loop.json'
import qualityGate from '../../examples/quality-gate.json'
import type { Store } from '../../core'

/** Three flow patterns, shipped as templates that run offline. */
export const templates: ReadonlyArray<{ id: string, definition: Record<string, unknown> & { name: string } }> = [
  { id: 'quality-gate', definition: qualityGate },
  { id: 'feedback-loop', definition: feedbackLoop },
  { id: 'ab-test', definition: abTest },
]

/** On a new database, the templates become workflows once, so a first start has something to run. */
export async function loadTemplatesOnFirstStart(store: Store): Promise<number> {
  return await store.workflows.seed('templates_loaded', templates.map(template => structuredClone(template.definition)))
}
