import type { ExperimentTarget } from '~/utils/experiment-template'
import type { WorkflowDetail } from '~/utils/api'

interface WorkflowSummary { id: string, name: string }

/**
 * The stored workflows an experiment can vary, and for one of them the target it would get: its
 * first LLM step (else its first step) and its input's first field.
 */
export function useExperimentTargets() {
  const { data: workflows, refresh } = useFetch<WorkflowSummary[]>('/api/workflows', { key: 'experiment-target-workflows', default: () => [] })
  const nodesOf = ref<Record<string, string[]>>({})
  /** The stored workflows as the choices of a select: the id, shown by name. */
  const workflowChoices = computed(() => workflows.value.map(w => ({ value: w.id, label: w.name })))

  /** `node` and `inputField` are kept when the workflow has them. */
  async function targetFor(workflowId: string, node?: string, inputField?: string): Promise<ExperimentTarget> {
    const { definition } = await $fetch<WorkflowDetail>(`/api/workflows/${workflowId}`)
    const steps = definition.nodes.filter(n => n.type !== 'input')
    nodesOf.value = { ...nodesOf.value, [workflowId]: steps.map(n => n.id) }
    const fields = Object.keys((definition.nodes.find(n => n.type === 'input')?.config.fields ?? {}) as Record<string, unknown>)
    const chosen = node && steps.some(n => n.id === node) ? node : (steps.find(n => n.type === 'llm') ?? steps[0])?.id
    const field = inputField && fields.includes(inputField) ? inputField : fields[0]
    return { workflow_id: workflowId, node: chosen ?? 'review', input_field: field ?? 'document' }
  }

  return { workflows, workflowChoices, nodesOf, targetFor, refresh }
}
