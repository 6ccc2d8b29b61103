import abTest from '../../examples/ab-test.json'
import feedbackLoop from '../../examples/feedback-loop.json'
import qualityGate from '../../examples/quality-gate.json'
import { createWorkflow, getSetting, setSetting, type Db } from '../../db'

/** The evaluator plan's three flow patterns, shipped as templates that run offline. */
export const templates: ReadonlyArray<{ id: string, definition: Record<string, unknown> & { name: string } }> = [
  { id: 'quality-gate', definition: qualityGate },
  { id: 'feedback-loop', definition: feedbackLoop },
  { id: 'ab-test', definition: abTest },
]

/** On a new database, the templates become workflows once, so a first start has something to run. */
export function loadTemplatesOnFirstStart(db: Db): number {
  if (getSetting(db, 'templates_loaded')) return 0
  return db.transaction(() => {
    for (const template of templates) createWorkflow(db, structuredClone(template.definition))
    setSetting(db, 'templates_loaded', true)
    return templates.length
  })
}
