/** Resolves once the browser has painted what the page holds now: in the task after the next frame. */
export function afterPaint(): Promise<void> {
  return new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve)))
}
