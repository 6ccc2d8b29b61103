import abTest from '~~/examples/ab-test.json'
import feedbackLoop from '~~/examples/feedback-loop.json'
import gateYourApi from '~~/examples/gate-your-api.json'
import qualityGate from '~~/examples/quality-gate.json'

/**
 * Four flow patterns, shipped as templates that run offline. The workflow list offers them (and
 * "Use this template" makes a workflow of one); they are not copied into a new database as workflows
 * too, which would list each of them twice.
 */
export const templates: ReadonlyArray<{ id: string, definition: Record<string, unknown> & { name: string } }> = [
  { id: 'quality-gate', definition: qualityGate },
  { id: 'feedback-loop', definition: feedbackLoop },
  { id: 'ab-test', definition: abTest },
  { id: 'gate-your-api', definition: gateYourApi },
]
