import { createProviders, evaluate } from '../engine'
import { median, report } from './lib'

/** 10,000 operations against 10,000 expected ones, through the strict preset (four scorers, incl. anti-hallucination). */
export async function benchScorers() {
  const n = 10_000
  const blocks = Array.from({ length: n }, (_, i) => ({ id: `b${i}`, page: `p${i % 50}`, content: `block ${i} まとめ` }))
  const expectedOps = blocks.map((b, i) => ({ type: i % 7 === 0 ? 'insert' : 'update', targetBlockId: b.id, position: 'after' }))
  const actualOps = expectedOps.map((op, i) => (i % 10 === 0 ? { ...op, targetBlockId: `b${(i + 1) % n}` } : op))
  const data = {
    // The output's blocks are its own objects (every tenth edited), not the original's.
    actual: { operations: actualOps, blocks: blocks.map((b, i) => (i % 10 === 0 ? { ...b, content: `${b.content} (edited)` } : { ...b })) },
    expected: { operations: expectedOps, patterns: Array.from({ length: 50 }, (_, i) => ({ page: `p${i}`, pattern: 'まとめ|summary' })) },
    original: { blocks },
  }
  const providers = createProviders({ env: {} })
  const times: number[] = []
  for (let i = 0; i < 15; i++) {
    // A fresh copy each time, so nothing parsed in one run is reused by the next.
    const input = structuredClone(data)
    const t0 = performance.now()
    await evaluate({ evaluation_type: 'scorers', preset: 'strict' }, input, { providers })
    if (i >= 3) times.push(performance.now() - t0)
  }
  report({ name: 'scorers on 10,000 operations (strict preset: 4 scorers, 10,000 blocks)', value: median(times), unit: 'ms', target: '<= 50' })
}
