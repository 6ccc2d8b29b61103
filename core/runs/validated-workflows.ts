import { validatedWorkflow, type StepRegistry, type Workflow } from '../../engine'

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
      workflow = validatedWorkflow(definition, this.registry)
      if (this.byVersion.size >= CACHE_SIZE) this.byVersion.delete(this.byVersion.keys().next().value!)
      this.byVersion.set(key, workflow)
    }
    return workflow
  }
}
