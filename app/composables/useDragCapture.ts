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
