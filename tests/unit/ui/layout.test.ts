import { describe, expect, it } from 'vitest'
import { autoLayout } from '../../../app/utils/layout'
import { intersects } from '../../../app/utils/placement'

const nodes = ['in', 'draft', 'judge', 'check', 'ok', 'again', 'ko'].map(id => ({ id, type: 'llm', config: {} }))
const edges = [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' },
  { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'again', when: 'false' }, { from: 'again', to: 'ko', when: 'exhausted' }]

describe('auto-layout', () => {
  it('lays each step out at its own size: tall and wide steps do not overlap', () => {
    const sizes = Object.fromEntries(nodes.map((n, i) => [n.id, { width: 176 + (i % 2) * 60, height: 90 + i * 25 }]))
    const at = autoLayout(nodes, edges, sizes)
    const boxes = nodes.map(n => ({ ...at[n.id]!, ...sizes[n.id]! }))
    for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(intersects(a, b)).toBe(false)
    // Left to right: each step starts after the one it follows ends.
    for (const e of edges) expect(at[e.to]!.x).toBeGreaterThanOrEqual(at[e.from]!.x + sizes[e.from]!.width)
  })

  it('puts the steps of a failing branch below the passing ones', () => {
    const at = autoLayout(nodes, edges)
    expect(at.again!.y).toBeGreaterThan(at.ok!.y)
  })

  it('gives a step it has no size for the room of a card', () => {
    const at = autoLayout(nodes.slice(0, 2), edges.slice(0, 1))
    expect(at.draft!.x - at.in!.x).toBeGreaterThanOrEqual(180)
  })
})
