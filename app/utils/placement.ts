/** Where things go on the canvas: a new step's free spot, and a fitted view that leaves the minimap's corner empty. */
export interface Box { x: number, y: number, width: number, height: number }
export interface Point { x: number, y: number }

/** The size a step not drawn yet is given room for. */
export const NEW_STEP = { width: 180, height: 96 }
/** A step not drawn yet with this many branches: a card, taller by a row for each branch. */
export function unmeasuredStepSize(branches: number): { width: number, height: number } {
  return { width: NEW_STEP.width, height: NEW_STEP.height + (branches ? 8 + 20 * branches : 0) }
}

/** The room kept between steps. */
const GAP = 24

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP
/** Whether two boxes share any area (touching edges do not). */
export const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
const within = (a: Box, view: Box) =>
  a.x >= view.x && a.y >= view.y && a.x + a.width <= view.x + view.width && a.y + a.height <= view.y + view.height

/** The box around all of `boxes`. */
export function boundsOf(boxes: readonly Box[]): Box {
  const x = Math.min(...boxes.map(b => b.x))
  const y = Math.min(...boxes.map(b => b.y))
  return { x, y, width: Math.max(...boxes.map(b => b.x + b.width)) - x, height: Math.max(...boxes.map(b => b.y + b.height)) - y }
}

/**
 * The area an edge from step `from` to step `to` is drawn in: between the first's right side and
 * the second's left; a retry's loop (`drop` > 0) runs back under both, `drop` below the lower.
 */
export function edgeBox(from: Box, to: Box, drop = 0): Box {
  const start = { x: from.x + from.width, y: from.y + from.height / 2 }
  const end = { x: to.x, y: to.y + to.height / 2 }
  if (drop > 0) {
    const left = Math.min(end.x, start.x) - drop
    const top = Math.min(start.y, end.y)
    return { x: left, y: top, width: Math.max(end.x, start.x) + drop - left, height: Math.max(from.y + from.height, to.y + to.height) + drop - top }
  }
  return { x: Math.min(start.x, end.x), y: Math.min(start.y, end.y), width: Math.abs(end.x - start.x), height: Math.max(2, Math.abs(end.y - start.y)) }
}

/**
 * The spot nearest `preferred` where a step of `size` covers no other step: searched in rings
 * around it, the first inside `view`; else the nearest free one in `view` on a fine grid; else
 * the first free one at all.
 */
export function freeSpot(preferred: Point, size: { width: number, height: number }, taken: readonly Box[], view: Box): Point {
  const stepX = (size.width + GAP) / 2
  const stepY = (size.height + GAP) / 2
  let outside: Point | undefined
  for (let ring = 0; ring <= 16; ring++) {
    const cells: Array<[number, number]> = []
    for (let i = -ring; i <= ring; i++) {
      for (let j = -ring; j <= ring; j++) if (Math.max(Math.abs(i), Math.abs(j)) === ring) cells.push([i, j])
    }
    cells.sort((a, b) => Math.hypot(a[0] * stepX, a[1] * stepY) - Math.hypot(b[0] * stepX, b[1] * stepY))
    for (const [i, j] of cells) {
      const box = { x: Math.round(preferred.x + i * stepX), y: Math.round(preferred.y + j * stepY), ...size }
      if (taken.some(other => overlaps(box, other))) continue
      if (within(box, view)) return { x: box.x, y: box.y }
      outside ??= { x: box.x, y: box.y }
    }
  }
  return scanView(preferred, size, taken, view) ?? outside ?? preferred
}

/** The free spot in `view` nearest `preferred`, searched on a fine grid: the rings' steps can miss a narrow gap. */
function scanView(preferred: Point, size: { width: number, height: number }, taken: readonly Box[], view: Box): Point | undefined {
  // Fine enough for a gap a few pixels wider than the step; at most about 120 × 80 spots on a large view.
  const step = Math.max(8, view.width / 120, view.height / 80)
  let best: { point: Point, distance: number } | undefined
  for (let y = view.y; y + size.height <= view.y + view.height; y += step) {
    for (let x = view.x; x + size.width <= view.x + view.width; x += step) {
      const box = { x: Math.round(x), y: Math.round(y), ...size }
      const distance = Math.hypot(box.x - preferred.x, box.y - preferred.y)
      if (best && distance >= best.distance) continue
      if (!taken.some(other => overlaps(box, other))) best = { point: { x: box.x, y: box.y }, distance }
    }
  }
  return best?.point
}

/**
 * The viewport showing every step (`bounds`, in flow coordinates) as large as it fits, with
 * `padding` as Vue Flow's fitView takes it, outside the corner (`corner`: width and height from the
 * bottom right) where the minimap sits: the steps either keep left of it or above it, whichever
 * leaves them larger; beside it, they also keep above `strip` (a hint's height along the bottom).
 * Never below `minZoom`: a workflow too large for the view at that zoom shows its start (top
 * left) and the rest is panned to, or, given `focus`, is centred on that point.
 */
export function fitBeside(
  bounds: Box, canvas: { width: number, height: number }, corner: { width: number, height: number },
  options: { padding: number, minZoom: number, maxZoom: number, focus?: Point, strip?: number },
) {
  // Beside the corner, the steps also keep above the strip along the bottom (a hint drawn there).
  const areas = [
    { width: canvas.width - corner.width, height: canvas.height - (options.strip ?? 0) },
    { width: canvas.width, height: canvas.height - corner.height },
  ]
  const zoomFor = (area: { width: number, height: number }) => Math.min(
    area.width / Math.max(1, bounds.width * (1 + options.padding)),
    area.height / Math.max(1, bounds.height * (1 + options.padding)),
  )
  const area = zoomFor(areas[0]!) >= zoomFor(areas[1]!) ? areas[0]! : areas[1]!
  const zoom = Math.min(options.maxZoom, Math.max(options.minZoom, zoomFor(area)))
  /** One axis: centred when the steps fit, else their start (or the focus) in view. */
  const axis = (size: number, start: number, room: number, focus: number | undefined) => {
    if (size * zoom <= room) return (room - size * zoom) / 2 - start * zoom
    if (focus !== undefined) return room / 2 - focus * zoom
    return (room * options.padding) / 2 - start * zoom
  }
  return {
    x: axis(bounds.width, bounds.x, area.width, options.focus?.x),
    y: axis(bounds.height, bounds.y, area.height, options.focus?.y),
    zoom,
  }
}

/**
 * The least shift that brings `box` (in screen pixels) inside `room`, `margin` from its sides;
 * a box larger than the room keeps its start (left, top) in it.
 */
export function shiftInto(box: Box, room: { width: number, height: number }, margin: number): Point {
  const axis = (start: number, size: number, space: number) => {
    if (start < margin) return margin - start
    if (start + size > space - margin) return Math.max(space - margin - (start + size), margin - start)
    return 0
  }
  return { x: axis(box.x, box.width, room.width), y: axis(box.y, box.height, room.height) }
}
