import { JudgeflowError } from '../errors'
import type { Workflow } from '../schema/workflow'
import { inputStep } from '../steps/input'
import type { DatasetCase } from './schema'

/** How many case ids a refusal names before "…". */
const NAMED_CASES = 3

/**
 * Refuses cases that lack a field the workflow's input step requires (and gives no default), before
 * any case runs: every case's run would be refused for it, one by one. One sentence names the
 * first such field, how many cases lack it and the first of them.
 */
export function checkRequiredInputs(workflow: Workflow, cases: readonly DatasetCase[]): void {
  for (const node of workflow.nodes) {
    if (node.type !== 'input') continue
    const fields = inputStep.configSchema.parse(node.config).fields ?? {}
    for (const [name, field] of Object.entries(fields)) {
      if (!field.required || field.default !== undefined) continue
      const lacking = cases.filter(c => !Object.hasOwn(c.input, name) || c.input[name] === undefined)
      if (!lacking.length) continue
      const ids = lacking.slice(0, NAMED_CASES).map(c => c.id).join(', ') + (lacking.length > NAMED_CASES ? ', …' : '')
      throw new JudgeflowError('INVALID_INPUT', `The dataset lacks "${name}", which the workflow's input step "${node.id}" requires: ${lacking.length} of ${cases.length} cases lack it (${ids}); add it to the cases (a column of that name), or give the field a default.`, {
        details: { field: name, node: node.id, cases: lacking.length, case_ids: lacking.slice(0, NAMED_CASES).map(c => c.id) },
      })
    }
  }
}
