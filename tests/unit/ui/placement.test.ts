import { describe, expect, it } from 'vitest'
import { edgeBox, fitBeside, freeSpot, shiftInto } from '../../../app/utils/placement'

const size = { width: 180, height: 70 }
const view = { x: 0, y: 0, width: 1000, height: 600 }

describe('placing a new step', () => {
  it('takes the preferred spot when it is free, else the nearest free one inside the view', () => {
    expect(freeSpot({ x: 400, y: 200 }, size, [], view)).toEqual({ x: 400, y: 200 })
    const taken = [{ x: 400, y: 200, ...size }]
    const spot = freeSpot({ x: 400, y: 200 }, size, taken, view)
    const clear = spot.x >= 400 + 180 + 24 || spot.x + 180 + 24 <= 400 || spot.y >= 200 + 70 + 24 || spot.y + 70 + 24 <= 200
    expect(clear).toBe(true)
    expect(Math.hypot(spot.x - 400, spot.y - 200)).toBeLessThan(200)
  })

  it('prefers a spot inside the view to a nearer one outside it', () => {
    const spot = freeSpot({ x: 900, y: 200 }, size, [], view)
    expect(spot.x + size.width).toBeLessThanOrEqual(1000)
  })
})

describe('fitting the steps beside the minimap', () => {
  it('keeps a wide graph above the minimap\'s corner and a tall one left of it', () => {
    const canvas = { width: 800, height: 500 }
    const corner = { width: 180, height: 120 }
    const options = { padding: 0.1, minZoom: 0.2, maxZoom: 1.5 }
    const wide = { x: 0, y: 0, width: 1300, height: 300 }
    const v = fitBeside(wide, canvas, corner, options)
    expect(v.y + (wide.y + wide.height) * v.zoom).toBeLessThanOrEqual(canvas.height - corner.height)
    expect(v.x + (wide.x + wide.width) * v.zoom).toBeLessThanOrEqual(canvas.width)
    const tall = { x: 0, y: 0, width: 300, height: 1300 }
    const t = fitBeside(tall, canvas, corner, options)
    expect(t.x + (tall.x + tall.width) * t.zoom).toBeLessThanOrEqual(canvas.width - corner.width)
  })
})

describe('fitting a workflow too large for the view', () => {
  const canvas = { width: 800, height: 400 }
  const none = { width: 0, height: 0 }
  const options = { padding: 0.1, minZoom: 0.8, maxZoom: 1.5 }
  const wide = { x: 100, y: 50, width: 3000, height: 200 }

  it('keeps the least zoom and shows the start of the workflow', () => {
    const v = fitBeside(wide, canvas, none, options)
    expect(v.zoom).toBe(0.8)
    // The left edge of the steps is on screen, a little in from the edge; they fit vertically and are centred.
    expect(v.x + wide.x * v.zoom).toBeCloseTo(40, 5)
    expect(v.y + (wide.y + wide.height / 2) * v.zoom).toBeCloseTo(200, 5)
  })

  it('or centres a given point, such as a step just added', () => {
    const v = fitBeside(wide, canvas, none, { ...options, focus: { x: 2500, y: 150 } })
    expect(v.x + 2500 * v.zoom).toBeCloseTo(400, 5)
  })
})

describe('placing a new step where the rings miss the only gap', () => {
  it('finds the narrow free band inside the view', () => {
    const canvas = { x: 0, y: 0, width: 762, height: 415 }
    const row = [40, 276, 512].map(x => ({ x, y: 120, width: 176, height: 95 }))
    const corners = [{ x: 582, y: 295, width: 180, height: 120 }, { x: 0, y: 275, width: 50, height: 140 }]
    const size = { width: 180, height: 144 }
    const spot = freeSpot({ x: 748, y: 120 }, size, [...row, ...corners], canvas)
    expect(spot.x >= 0 && spot.y >= 0 && spot.x + size.width <= 762 && spot.y + size.height <= 415).toBe(true)
  })

  it('finds a gap only a few pixels wider than the step', () => {
    // A fresh canvas: the input step, and two steps in the middle of the view; the only room left is left of them, below the input.
    const canvas = { x: 0, y: 0, width: 762, height: 416 }
    const taken = [{ x: 40, y: 120, width: 176, height: 75 }, { x: 291, y: 160, width: 176, height: 97 }, { x: 527, y: 160, width: 176, height: 97 },
      { x: 582, y: 296, width: 180, height: 120 }, { x: 0, y: 276, width: 50, height: 140 }]
    const size = { width: 180, height: 144 }
    const spot = freeSpot({ x: 763, y: 160 }, size, taken, canvas)
    expect(spot.x >= 0 && spot.y >= 0 && spot.x + size.width <= 762 && spot.y + size.height <= 416).toBe(true)
  })
})

describe('keeping chrome and edges clear', () => {
  it('keeps the steps above a hint along the bottom when they sit beside the minimap', () => {
    const canvas = { width: 800, height: 500 }
    const tall = { x: 0, y: 0, width: 300, height: 1300 }
    const v = fitBeside(tall, canvas, { width: 180, height: 120 }, { padding: 0.1, minZoom: 0.2, maxZoom: 1.5, strip: 44 })
    expect(v.y + (tall.y + tall.height) * v.zoom).toBeLessThanOrEqual(canvas.height - 44)
  })

  it('gives an edge the area between its steps, and a loop the area under them', () => {
    const a = { x: 0, y: 0, width: 100, height: 50 }
    const b = { x: 200, y: 100, width: 100, height: 50 }
    expect(edgeBox(a, b)).toEqual({ x: 100, y: 25, width: 100, height: 100 })
    const loop = edgeBox(b, a, 48)
    expect(loop.y + loop.height).toBe(150 + 48)
    expect(loop.x).toBeLessThan(0)
    expect(loop.x + loop.width).toBeGreaterThan(300)
  })

  it('shifts a box into the room by as little as shows it, its start first when it cannot fit', () => {
    const room = { width: 800, height: 400 }
    expect(shiftInto({ x: 100, y: 100, width: 100, height: 50 }, room, 16)).toEqual({ x: 0, y: 0 })
    expect(shiftInto({ x: 750, y: -20, width: 100, height: 50 }, room, 16)).toEqual({ x: -66, y: 36 })
    expect(shiftInto({ x: 100, y: 0, width: 1000, height: 50 }, room, 16)).toEqual({ x: -84, y: 16 })
  })
})
