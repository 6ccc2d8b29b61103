import { useStorage } from '@vueuse/core'

/** The run panel's height is kept between this many pixels and a share of the window. */
const MIN_HEIGHT = 120
const MAX_SHARE = 0.6
const KEY_STEP = 24

/** Whether the run panel is folded: by itself (while there is no run to show), or as the person last chose. */
type Fold = 'auto' | 'open' | 'folded'

/**
 * The editor's run panel: its height (dragged on its handle, or the arrow keys there) and whether
 * it is folded to its tab bar; both kept in localStorage, so a reload keeps the person's choice.
 * Until the person folds or opens it, it is folded while `hasRun` is false: an empty panel would
 * take a third of the canvas's height at 1280×720. `room` is the most the editor has for it beside
 * the canvas's least height (undefined until measured): a taller panel would push the editor past
 * the window, and the focus reaching into it would scroll the toolbar away.
 */
export function useRunPanelSize(hasRun: () => boolean, room: () => number | undefined = () => undefined) {
  const saved = useStorage<{ height: number, fold: Fold }>('judgeflow-run-panel', { height: 200, fold: 'auto' }, undefined, { mergeDefaults: true })
  const max = () => Math.max(MIN_HEIGHT, Math.min(Math.round(window.innerHeight * MAX_SHARE), Math.floor(room() ?? Infinity)))
  const clamp = (h: number) => Math.min(max(), Math.max(MIN_HEIGHT, Math.round(h)))

  function drag(event: PointerEvent) {
    const handle = event.currentTarget as HTMLElement
    const [startY, startHeight] = [event.clientY, saved.value.height]
    handle.setPointerCapture(event.pointerId)
    const move = (e: PointerEvent) => { saved.value = { ...saved.value, height: clamp(startHeight + startY - e.clientY) } }
    const stop = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', stop)
      handle.removeEventListener('pointercancel', stop)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', stop)
    handle.addEventListener('pointercancel', stop)
  }
  /** Arrow up makes the panel taller, arrow down shorter; Home and End go to the least and most. */
  function key(event: KeyboardEvent) {
    const next = { ArrowUp: saved.value.height + KEY_STEP, ArrowDown: saved.value.height - KEY_STEP, Home: MIN_HEIGHT, End: max() }[event.key]
    if (next === undefined) return
    event.preventDefault()
    saved.value = { ...saved.value, height: clamp(next) }
  }

  return reactive({
    height: computed(() => clamp(saved.value.height)),
    collapsed: computed({
      get: () => (saved.value.fold === 'auto' ? !hasRun() : saved.value.fold === 'folded'),
      set: (collapsed: boolean) => { saved.value = { ...saved.value, fold: collapsed ? 'folded' : 'open' } },
    }),
    min: MIN_HEIGHT,
    max: computed(max),
    drag,
    key,
  })
}
