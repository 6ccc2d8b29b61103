import { onKeyStroke, useEventListener, useStorage } from '@vueuse/core'
import { useWorkflowStore, type DocEdge, type DocNode } from '~/stores/workflow'
import { commitFocusedField } from '~/utils/commit-field'
import { parseOwnJson } from '~~/engine/text/own-json'

/** Steps copied, and the edges between them. */
export type Clipboard = { nodes: DocNode[], edges: DocEdge[] }
/** The element holding the canvas: focus inside it is focus on the canvas. */
const CANVAS = '.vue-flow'
/** The canvas's own controls (zoom buttons, a refusal's close button): focus on them is not on the steps. */
const CONTROLS = 'button, input, textarea, select, [role=dialog]'

/**
 * The editor's keys: undo and redo (Ctrl+Shift+Z or Ctrl+Y), save, delete the selection, copy and paste steps (the
 * clipboard is kept in localStorage, so steps can be pasted into another workflow); and a warning
 * before unsaved changes are left behind.
 */
export function useEditorShortcuts(actions: {
  removeSelection: () => void
  save: () => unknown
  /** Adds the clipboard's steps to the workflow, placed where the canvas has room for them. */
  paste: (data: Clipboard) => void
}) {
  const store = useWorkflowStore()
  const clipboard = useStorage<Clipboard | null>('judgeflow-clipboard', null, undefined, {
    serializer: { read: v => (v ? parseOwnJson(v) : null), write: v => JSON.stringify(v) },
  })
  const typing = () => ['INPUT', 'TEXTAREA', 'SELECT'].includes((document.activeElement?.tagName ?? '').toUpperCase())
  /**
   * Delete and Backspace act on the canvas only: a step, an edge or the canvas itself has focus.
   * Pressed on a button of the settings, in a dialog or with nothing focused, they would remove
   * the step being edited.
   */
  const onCanvas = () => !!document.activeElement?.closest(CANVAS) && !document.activeElement.closest(CONTROLS)

  onKeyStroke(['z', 'Z'], (e) => {
    if (!(e.ctrlKey || e.metaKey) || typing()) return
    e.preventDefault()
    if (e.shiftKey) store.redo()
    else store.undo()
  })
  onKeyStroke(['y', 'Y'], (e) => {
    if (!(e.ctrlKey || e.metaKey) || typing()) return
    e.preventDefault()
    store.redo()
  })
  onKeyStroke('s', (e) => {
    if (!(e.ctrlKey || e.metaKey)) return
    e.preventDefault()
    void actions.save()
  })
  onKeyStroke(['Delete', 'Backspace'], (e) => {
    if (!onCanvas()) return
    e.preventDefault()
    actions.removeSelection()
  })
  onKeyStroke('c', (e) => {
    if ((e.ctrlKey || e.metaKey) && !typing() && store.selected.length) clipboard.value = store.copy(store.selected)
  })
  onKeyStroke('v', (e) => {
    if ((e.ctrlKey || e.metaKey) && !typing() && clipboard.value) actions.paste(clipboard.value)
  })
  // The field being typed in counts as changed: it is committed before the question.
  useEventListener(window, 'beforeunload', (e: BeforeUnloadEvent) => {
    commitFocusedField()
    if (store.dirty) e.preventDefault()
  })
  onBeforeRouteLeave(() => {
    commitFocusedField()
    return store.dirty ? window.confirm('Leave without saving your changes?') : true
  })
}
