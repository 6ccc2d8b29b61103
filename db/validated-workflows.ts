import { validatedWorkflow, type StepRegistry, type Workflow } from '../engine'

const CACHE_SIZE = 200

/** Workflow versions never change, so each is validated once (the latest 200 are kept). */
export class ValidatedWorkflows {
  private readonly byVersion = new Map<string, Workflow>()

  constructor(private readonly registry: StepRegistry) {}

  /** The validated workflow; a definition without a stored version is validated every time. */
  get(request: { definition: Record<string, unknown>, workflowId?: string | null, workflowVersion?: number | null }): Workflow {
    if (!request.workflowId || !request.workflowVersion) return validatedWorkflow(request.definition, this.registry)
    const key = `${request.workflowId}@${request.workflowVersion}`
    let workflow = this.byVersion.get(key)
    if (!workflow) {
      workflow = validatedWorkflow(request.definition, this.registry)
      if (this.byVersion.size >= CACHE_SIZE) this.byVersion.delete(this.byVersion.keys().next().value!)
      this.byVersion.set(key, workflow)
    }
    return workflow
  }
}
