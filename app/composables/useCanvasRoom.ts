import { useVueFlow } from '@vue-flow/core'
import type { ComputedRef, Ref } from 'vue'
import { useWorkflowStore, type DocNode } from '~/stores/workflow'
import { boundsOf, edgeBox, freeSpot, intersects, shiftInto, type Box, type Point } from '~/utils/placement'

/** The minimap's corner (bottom right: its size and margins), kept free of steps by `fit`. */
export const MINIMAP = { width: 150, height: 90, room: 30 }
/** The height along the bottom the hint takes (its line and margin), kept free of steps by `fit`. */
export const HINT_ROOM = 44
/** The hint's width on screen (one line of about 60 characters). */
const HINT_WIDTH = 380
/** How far below its steps a retry's loop is drawn (as EdgeLayer draws it). */
const LOOP_ROOM = 48
/** The line a run (its status, time and score) or a list of problems adds to a step. */
const RUN_LINE = 28

/**
 * The canvas's room: where each step, edge and piece of chrome is, where pasted steps go, the
 * sizes auto-layout uses, and the view kept on the steps as the canvas and its steps change size.
 */
export function useCanvasRoom(canvas: {
  edges: ComputedRef<ReadonlyArray<{ source: string, target: string, loop: boolean }>>
  minimapShown: Ref<boolean>
  dragging: Ref<boolean>
  /** The size a step not measured yet is given room for. */
  newStepSize: (type?: string) => { width: number, height: number }
  /** The steps that ran in the run shown, and the hint along the bottom. */
  ran: (id: string) => boolean
  hint: () => string | undefined
  fit: () => Promise<unknown>
  /** Whether the first view was fitted: sizes reported before it are the first measurement. */
  ready: () => boolean
  overlap: () => void
}) {
  const store = useWorkflowStore()
  const { getNodes, viewport, dimensions, setViewport } = useVueFlow('workflow-canvas')

  /** Every step's box in flow coordinates, at its measured size (a step just added: the size it was given room for). */
  function stepBoxes(): Array<Box & { id: string }> {
    return getNodes.value.map((n) => {
      const size = n.dimensions.width ? n.dimensions : canvas.newStepSize(n.data?.type)
      return { id: n.id, x: n.position.x, y: n.position.y, width: size.width, height: size.height }
    })
  }
  /** The areas the edges are drawn in, retry loops included. */
  function edgeBoxes(steps: ReadonlyArray<Box & { id: string }>): Box[] {
    const byId = new Map(steps.map(b => [b.id, b]))
    return canvas.edges.value.flatMap((e) => {
      const [from, to] = [byId.get(e.source), byId.get(e.target)]
      return from && to ? [edgeBox(from, to, e.loop ? LOOP_ROOM : 0)] : []
    })
  }
  /** A box given in screen pixels of the canvas, in flow coordinates. */
  function toFlow(left: number, top: number, width: number, height: number): Box {
    const { x, y, zoom } = viewport.value
    return { x: (left - x) / zoom, y: (top - y) / zoom, width: width / zoom, height: height / zoom }
  }
  /** A box in flow coordinates, in screen pixels of the canvas. */
  function toScreen(box: Box): Box {
    const { x, y, zoom } = viewport.value
    return { x: box.x * zoom + x, y: box.y * zoom + y, width: box.width * zoom, height: box.height * zoom }
  }
  /** The part of the workflow in view, in flow coordinates. */
  function visibleArea() {
    return { ...toFlow(0, 0, dimensions.value.width, dimensions.value.height), zoom: viewport.value.zoom }
  }
  /** The canvas's own chrome, in flow coordinates: the minimap's corner and the zoom buttons' strip. */
  function chromeBoxes(): Box[] {
    const { width, height } = dimensions.value
    const boxes = [toFlow(0, height - 140, 50, 140)]
    if (canvas.minimapShown.value) {
      const room = { width: MINIMAP.width + MINIMAP.room, height: MINIMAP.height + MINIMAP.room }
      boxes.push(toFlow(width - room.width, height - room.height, room.width, room.height))
    }
    return boxes
  }

  /**
   * Where pasted steps go: as near their originals as there is room, covering no step, no edge and
   * none of the canvas's chrome, in view when there is room there. Returns how far they move.
   */
  function placeCopy(copied: readonly DocNode[]): Point {
    if (!copied.length) return { x: 0, y: 0 }
    const steps = stepBoxes()
    const group = boundsOf(copied.map((n) => {
      // A copy can show a line its original does not: its problems, until it is connected.
      const size = steps.find(b => b.id === n.id) ?? canvas.newStepSize(n.type)
      return { x: n.position?.x ?? 0, y: n.position?.y ?? 0, width: size.width, height: size.height + RUN_LINE }
    }))
    const spot = freeSpot(group, { width: group.width, height: group.height }, [...steps, ...edgeBoxes(steps), ...chromeBoxes()], visibleArea())
    return { x: Math.round(spot.x - group.x), y: Math.round(spot.y - group.y) }
  }

  /** The size each step is laid out at: as measured, with room for the line a run adds to a step that has not run. */
  function layoutSizes(): Record<string, { width: number, height: number }> {
    return Object.fromEntries(stepBoxes().map(b => [b.id, { width: b.width, height: b.height + (canvas.ran(b.id) ? 0 : RUN_LINE) }]))
  }

  /** Whether every step shows whole in a canvas of `size` at the current viewport. */
  function showsWhole(size: { width: number, height: number }) {
    const box = toScreen(boundsOf(stepBoxes()))
    return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height
  }
  /** Pans a selected step cut by the view back into it, by as little as shows it whole. */
  function keepSelectedInView() {
    const box = store.selected.length === 1 ? stepBoxes().find(b => b.id === store.selected[0]) : undefined
    if (!box) return
    const shift = shiftInto(toScreen(box), dimensions.value, 16)
    const { x, y, zoom } = viewport.value
    if (shift.x || shift.y) void setViewport({ x: x + shift.x, y: y + shift.y, zoom })
  }
  /**
   * The view follows the room the canvas has. When the settings column opens or closes, or the run
   * panel folds or unfolds, a workflow that showed whole is fitted again (so closing the column
   * brings back the steps it pushed aside), and a selected step is kept in view beside its settings.
   */
  watch(() => ({ width: dimensions.value.width, height: dimensions.value.height }), async (size, before) => {
    if (!before?.width || !size.width || !getNodes.value.length) return
    if (!store.selected.length || showsWhole(before)) await canvas.fit()
    keepSelectedInView()
  })
  /**
   * Steps change size after a run (a status line, a score): steps that came to overlap are said
   * (the editor lays them out again when the layout was its own), and the view keeps them in it.
   */
  let settling = false
  function stepsResized() {
    if (settling || !canvas.ready() || canvas.dragging.value) return
    settling = true
    requestAnimationFrame(() => {
      settling = false
      const steps = stepBoxes()
      checkChrome()
      if (steps.some((a, i) => steps.slice(i + 1).some(b => intersects(a, b)))) canvas.overlap()
      else if (store.selected.length) keepSelectedInView()
      else if (!showsWhole(dimensions.value)) void canvas.fit()
    })
  }

  /**
   * The hint and the minimap fade while a step lies under them (the view panned or zoomed there),
   * so they never hide a step; they are drawn in full again once it moves away. Checked a frame
   * after the view, the canvas or the steps change, not as each step is measured or dragged.
   */
  const underChrome = shallowRef({ hint: false, minimap: false })
  let checking = false
  function checkChrome() {
    if (checking) return
    checking = true
    requestAnimationFrame(() => {
      checking = false
      if (canvas.dragging.value || !dimensions.value.width) return
      const { width, height } = dimensions.value
      const steps = stepBoxes()
      const covers = (box: Box) => steps.some(step => intersects(step, box))
      const next = {
        hint: !!canvas.hint() && covers(toFlow(width / 2 - HINT_WIDTH / 2, height - HINT_ROOM, HINT_WIDTH, HINT_ROOM)),
        minimap: canvas.minimapShown.value && covers(toFlow(width - MINIMAP.width - 15, height - MINIMAP.height - 15, MINIMAP.width, MINIMAP.height)),
      }
      if (next.hint !== underChrome.value.hint || next.minimap !== underChrome.value.minimap) underChrome.value = next
    })
  }
  watch(() => [viewport.value.x, viewport.value.y, viewport.value.zoom, dimensions.value.width, dimensions.value.height,
    getNodes.value.length, canvas.dragging.value, canvas.minimapShown.value, canvas.hint()], checkChrome)

  return { stepBoxes, chromeBoxes, visibleArea, placeCopy, layoutSizes, stepsResized, underChrome }
}
