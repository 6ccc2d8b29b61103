import { onKeyStroke, useEventListener, useStorage } from '@vueuse/core'
import { useWorkflowStore, type DocEdge, type DocNode } from '~/stores/workflow'

/**
 * The editor's keys: undo and redo (Ctrl+Shift+Z or Ctrl+Y), save, delete the selection, copy and paste steps (the
 * clipboard is kept in localStorage, so steps can be pasted into another workflow); and a warning
 * before unsaved changes are left behind.
 */
export function useEditorShortcuts(actions: { removeSelection: () => void, save: () => unknown }) {
  const store = useWorkflowStore()
  const clipboard = useStorage<{ nodes: DocNode[], edges: DocEdge[] } | null>('judgeflow-clipboard', null, undefined, {
    serializer: { read: v => (v ? JSON.parse(v) : null), write: v => JSON.stringify(v) },
  })
  const typing = () => ['INPUT', 'TEXTAREA', 'SELECT'].includes((document.activeElement?.tagName ?? '').toUpperCase())

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
  onKeyStroke(['Delete', 'Backspace'], () => {
    if (!typing()) actions.removeSelection()
  })
  onKeyStroke('c', (e) => {
    if ((e.ctrlKey || e.metaKey) && !typing() && store.selected.length) clipboard.value = store.copy(store.selected)
  })
  onKeyStroke('v', (e) => {
    if ((e.ctrlKey || e.metaKey) && !typing() && clipboard.value) store.paste(clipboard.value)
  })
  useEventListener(window, 'beforeunload', (e: BeforeUnloadEvent) => {
    if (store.dirty) e.preventDefault()
  })
  onBeforeRouteLeave(() => (store.dirty ? window.confirm('Leave without saving your changes?') : true))
}
