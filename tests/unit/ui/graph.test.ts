import { describe, expect, it } from 'vitest'
import { connectionProblem, copyId, freshId, wouldCycle } from '../../../app/utils/graph'

const edges = [{ from: 'in', to: 'llm' }, { from: 'llm', to: 'check' }, { from: 'check', to: 'ok', when: 'true' }]

describe('connections the editor refuses, with the reason', () => {
  it('refuses loops of edges, self-edges and duplicates', () => {
    expect(wouldCycle(edges, 'ok', 'in')).toBe(true)
    expect(connectionProblem(edges, 'check', 'llm')).toBe('check → llm would make a cycle; loop back with a retry node\'s target instead')
    expect(connectionProblem(edges, 'llm', 'llm')).toMatch(/^llm cannot feed itself/)
    expect(connectionProblem(edges, 'in', 'llm')).toBe('these nodes are already connected')
    expect(connectionProblem(edges, 'check', 'ok', 'true')).toBe('these nodes are already connected')
  })

  it('refuses joining both branches of one step into the same step', () => {
    expect(connectionProblem(edges, 'check', 'ok', 'false')).toBe('ok already gets the "true" branch of check; joining it to the "false" branch too would run it on every path — connect it to a step after check instead')
    expect(connectionProblem(edges, 'check', 'retry', 'false')).toBeNull()
    expect(connectionProblem(edges, 'in', 'check')).toBeNull()
  })

  it('names new nodes by type, numbering repeats', () => {
    expect(freshId('llm', new Set(['llm', 'llm_2']))).toBe('llm_3')
    expect(freshId('output', new Set())).toBe('output')
  })

  it('names a copy after its original, numbering from the original\'s name', () => {
    expect(copyId('judge', new Set(['judge']))).toBe('judge_2')
    expect(copyId('judge', new Set(['judge', 'judge_2']))).toBe('judge_3')
    expect(copyId('judge_2', new Set(['judge', 'judge_2']))).toBe('judge_3')
    expect(copyId('judge', new Set(['draft']))).toBe('judge')
  })
})
