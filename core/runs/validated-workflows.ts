import { validatedWorkflow, workflowSchema, type Providers, type StepRegistry, type Workflow } from '../../engine'
import { parseStored } from '../stored'

const CACHE_SIZE = 200
/** The longest definition of no stored version kept by its text (one carrying outputs to compare is validated each time). */
const KEPT_TEXT_CHARS = 16_384

/**
 * Validated workflows by stored version: a version never changes, so each is validated once. A
 * definition of no stored version (a run of a definition, an evaluator alone on each case of a
 * dataset) is kept by its JSON text: the same text validates the same way.
 */
export class ValidatedWorkflows {
  private readonly byVersion = new Map<string, Workflow>()
  private readonly byText = new Map<string, Workflow>()

  /** `providers`: the run's, whose ids a workflow's models are checked against (the caller's own included). */
  constructor(private readonly registry: StepRegistry, private readonly providers?: Pick<Providers, 'providerIds'>) {}

  private validate(definition: Record<string, unknown>): Workflow {
    return validatedWorkflow(definition, this.registry, { providers: this.providers?.providerIds?.() })
  }

  get(definition: Record<string, unknown>, workflowId?: string | null, version?: number | null): Workflow {
    if (!workflowId || !version) return this.unversioned(definition)
    const key = `${workflowId}@${version}`
    let workflow = this.byVersion.get(key)
    if (!workflow) {
      // A stored version passed the workflow schema when it was saved: failing it now, it is unreadable, not a draft.
      // A key refused since it was saved is the workflow's problem, reported as such by validation.
      const shape = workflowSchema.safeParse(definition)
      if (!shape.success && shape.error.issues.some(issue => issue.code !== 'unrecognized_keys')) {
        parseStored(workflowSchema, definition, `version ${version} of workflow "${workflowId}"`)
      }
      workflow = this.validate(definition)
      if (this.byVersion.size >= CACHE_SIZE) this.byVersion.delete(this.byVersion.keys().next().value!)
      this.byVersion.set(key, workflow)
    }
    return workflow
  }

  private unversioned(definition: Record<string, unknown>): Workflow {
    const text = JSON.stringify(definition)
    if (text.length > KEPT_TEXT_CHARS) return this.validate(definition)
    let workflow = this.byText.get(text)
    if (!workflow) {
      workflow = this.validate(definition)
      if (this.byText.size >= CACHE_SIZE) this.byText.delete(this.byText.keys().next().value!)
      this.byText.set(text, workflow)
    }
    return workflow
  }
}
