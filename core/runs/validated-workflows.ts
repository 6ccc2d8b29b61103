import { validatedWorkflow, workflowSchema, type StepRegistry, type Workflow } from '../../engine'
import { parseStored } from '../stored'

const CACHE_SIZE = 200

/** Validated workflows by stored version: a version never changes, so each is validated once. */
export class ValidatedWorkflows {
  private readonly byVersion = new Map<string, Workflow>()

  constructor(private readonly registry: StepRegistry) {}

  get(definition: Record<string, unknown>, workflowId?: string | null, version?: number | null): Workflow {
    if (!workflowId || !version) return validatedWorkflow(definition, this.registry)
    const key = `${workflowId}@${version}`
    let workflow = this.byVersion.get(key)
    if (!workflow) {
      // A stored version passed the workflow schema when it was saved: failing it now, it is unreadable, not a draft.
      // A key refused since it was saved is the workflow's problem, reported as such by validation.
      const shape = workflowSchema.safeParse(definition)
      if (!shape.success && shape.error.issues.some(issue => issue.code !== 'unrecognized_keys')) {
        parseStored(workflowSchema, definition, `version ${version} of workflow "${workflowId}"`)
      }
      workflow = validatedWorkflow(definition, this.registry)
      if (this.byVersion.size >= CACHE_SIZE) this.byVersion.delete(this.byVersion.keys().next().value!)
      this.byVersion.set(key, workflow)
    }
    return workflow
  }
}
