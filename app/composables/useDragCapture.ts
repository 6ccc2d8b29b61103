import type { GraphNode, NodeChange } from '@vue-flow/core'

/**
 * Holds the pointer on the step card being dragged (pointer capture), from the moment the drag
 * starts until the button is released. The browser then sends each move straight to that card
 * instead of first searching every card under the pointer for the one it is over: on a
 * 200-step workflow that search was most of a move's work. Other cards take no hover meanwhile.
 */
export function useDragCapture() {
  let pressed: { element: Element, pointerId: number } | null = null

  /** Remembers what the button went down on (listen in the capture phase, before Vue Flow). */
  function pressedOn(event: PointerEvent) {
    pressed = event.target instanceof Element ? { element: event.target, pointerId: event.pointerId } : null
  }

  /** Released: the browser ends a capture itself, and nothing is held from here on. */
  function released() {
    pressed = null
  }

  /** Called when a drag starts, so the button is still down on the element it was pressed on. */
  function hold() {
    if (pressed?.element.isConnected && !pressed.element.hasPointerCapture(pressed.pointerId)) {
      pressed.element.setPointerCapture(pressed.pointerId)
    }
  }

  return { pressedOn, released, hold }
}

/**
 * Applies the canvas's node changes: a move (one at each pointer move of a drag) straight to its
 * node, the others through Vue Flow's `applyNodeChanges`, which looks for each change's node among
 * all of them (200 at every pointer move on a large workflow). Steps have no parent node to grow.
 */
export function applyNodeChangesById(
  changes: NodeChange[],
  findNode: (id: string) => GraphNode | undefined,
  applyOthers: (changes: NodeChange[]) => unknown,
): void {
  const others = changes.filter((change) => {
    if (change.type !== 'position') return true
    const node = findNode(change.id)
    if (node && change.position) node.position = change.position
    if (node && change.dragging !== undefined) node.dragging = change.dragging
    return false
  })
  if (others.length) applyOthers(others)
}
