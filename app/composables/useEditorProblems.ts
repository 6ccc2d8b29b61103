import { useDebounceFn } from '@vueuse/core'
import type { Ref } from 'vue'
import { useWorkflowStore, type DocNode } from '~/stores/workflow'
import { problemSentence } from '~/utils/field-labels'
import type { Problem } from '~/utils/validate'
import { problemEntries } from '~/utils/problem-list'

/**
 * The editor's document checked with the engine's own schemas (in a worker: useWorkflowProblems),
 * at most every 100 ms while typing; the first time once the canvas has drawn its steps and the
 * page is idle (`validateWhenIdle`), so a large workflow shows up before its problems do and the
 * worker does not start while the canvas is being drawn. The problems are grouped by node for the
 * canvas, and by field for the selected step's form, said in words. They are counted and marked on
 * the cards as soon as a step is added; the fields of a step added in this session are flagged once
 * a field of its form was left (or a save or run was asked for): see `store.untouched`.
 */
export function useEditorProblems(selectedNode: Ref<DocNode | undefined>) {
  const store = useWorkflowStore()
  const { problems, warnings, validate: validateNow } = useWorkflowProblems()

  const validate = useDebounceFn(() => validateNow(store.id ? store.doc : null), 100)
  watch(() => store.revision, validate)
  const validateWhenIdle = () => requestIdleCallback(() => validate(), { timeout: 1000 })
  onMounted(() => {
    if (!store.doc.nodes.length) validateWhenIdle()
  })

  /** A problem in words: a field's problem as a sentence naming the field by its label. */
  const sentence = (p: Problem) => {
    const node = p.node ? store.nodeById(p.node) : undefined
    const field = p.node && p.path?.startsWith(`nodes.${p.node}.config.`) ? p.path.slice(`nodes.${p.node}.`.length) : undefined
    const said = p.message.replace(/^node "[^"]+": /, '')
    // A problem of a step's config as a whole ("give module or python") is said without its path.
    if (node && p.path === `nodes.${p.node}.config` && said.startsWith(`${p.path}: `)) return said.slice(p.path.length + 2)
    if (!node || !field) return said
    return problemSentence(node.type, field, said.replace(/^[^:]+: /, ''))
  }
  /** A problem in words after the step it is on, named as its card names it: "Check (condition): Value is required." */
  const ofStep = (p: Problem) => {
    const node = p.node ? store.nodeById(p.node) : undefined
    return node ? `${node.name ? `${node.name} (${node.id})` : node.id}: ${sentence(p)}` : sentence(p)
  }
  // The fields of a step added in this session show their problems once one of them was left or a run asked for.
  const shown = computed(() => {
    const hidden = new Set(store.untouched)
    return hidden.size ? problems.value.filter(p => !p.node || !hidden.has(p.node)) : problems.value
  })
  const problemsByNode = computed(() => {
    const out: Record<string, string[]> = {}
    for (const p of problems.value) if (p.node) (out[p.node] ??= []).push(sentence(p))
    return out
  })
  const warningsOf = (nodeId: string) => warnings.value.filter(w => w.node === nodeId).map(w => w.message.replace(`node "${nodeId}": `, ''))
  /** The selected step's problems by field (`config.prompt`, `config.criteria[0].name`): the sentences of the step's list. */
  const fieldErrors = computed(() => {
    const out: Record<string, string> = {}
    const node = selectedNode.value
    if (!node) return out
    for (const p of shown.value) {
      if (p.node !== node.id || !p.path) continue
      out[p.path.replace(`nodes.${node.id}.`, '')] = sentence(p)
    }
    return out
  })

  /** The list under the palette's count, live as the workflow is edited: each problem in words, with the step and field it leads to. */
  const entries = computed(() => problemEntries(problems.value, sentence))

  return { problems, entries, problemsByNode, warningsOf, fieldErrors, validateWhenIdle, ofStep }
}
