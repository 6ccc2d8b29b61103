import { describe, expect, it } from 'vitest'
import { calibrationGate, evaluateGates } from '../../../engine/datasets/gates'
import { kappaSaid, kappaUncertainty, trustedLowerBound } from '../../../engine/datasets/kappa-interval'

describe('whether a κ can tell: fewer than 30 labelled cases, no interval, or one wider than 0.4', () => {
  it('says too few cases under 30 labelled, whatever the width', () => {
    // The calibration: 10 cases, [0.00, 1.00].
    expect(kappaSaid({ kappa: 0.6, kappa_ci: [0, 1], labelled: 10 })).toBe('κ 0.60 [0.00, 1.00] — too few cases to tell: 10 labelled, 30 needed; the interval is 1.00 wide')
    // 8 cases all agreed on: a bootstrap interval of no width, still too few.
    expect(kappaUncertainty({ kappa_ci: [1, 1], labelled: 8 })).toBe('too few cases to tell: 8 labelled, 30 needed; the interval is 0.00 wide')
    expect(kappaUncertainty({ kappa_ci: null, labelled: 29 })).toBe('too few cases to tell: 29 labelled, 30 needed')
  })

  it('says too wide past 0.4, and nothing of an interval 0.4 wide or less on 30 or more cases', () => {
    expect(kappaUncertainty({ kappa_ci: [0.3, 0.87], labelled: 30 })).toBe('too wide to tell: the interval is 0.57 wide, more than 0.4, on 30 labelled cases')
    expect(kappaUncertainty({ kappa_ci: [0.41, 0.81], labelled: 120 })).toBeNull()
    expect(kappaSaid({ kappa: 0.71, kappa_ci: [0.58, 0.82], labelled: 120 })).toBe('κ 0.71 [0.58, 0.82]')
    expect(kappaUncertainty({ kappa_ci: null, labelled: 300 })).toBe('too few cases to tell: no interval could be drawn')
    expect(kappaSaid({ kappa: null, kappa_ci: null, labelled: 300 })).toBe('κ not defined — too few cases to tell: no interval could be drawn')
  })
})

describe('the min_kappa_lower gate', () => {
  it('reads the interval\'s lower bound, none under 30 labelled cases', () => {
    expect(trustedLowerBound({ kappa_ci: [0.31, 0.86], labelled: 30 })).toBe(0.31)
    expect(trustedLowerBound({ kappa_ci: [1, 1], labelled: 8 })).toBeNull()
    expect(trustedLowerBound({ kappa_ci: null, labelled: 100 })).toBeNull()
  })

  it('holds when the bound reaches the one required; fails with nothing to measure; is absent unless asked', () => {
    expect(calibrationGate({ min_kappa_lower: 0.5, kappa_lower: 0.31 })).toEqual({ gate: 'min_kappa_lower', required: 0.5, actual: 0.31, passed: false })
    expect(calibrationGate({ min_kappa_lower: 0.3, kappa_lower: 0.3 })).toEqual({ gate: 'min_kappa_lower', required: 0.3, actual: 0.3, passed: true })
    expect(calibrationGate({ min_kappa_lower: 0.3, kappa_lower: null })).toEqual({ gate: 'min_kappa_lower', required: 0.3, actual: null, passed: false })
    expect(calibrationGate({})).toBeUndefined()
    const gates = evaluateGates({ min_pass_rate: 1 }, { pass_rate: 1, kappa: null, regressions: null, errored: 0, min_kappa_lower: 0.5, kappa_lower: 0.31 })
    expect(gates.map(g => [g.gate, g.passed])).toEqual([['min_pass_rate', true], ['min_kappa_lower', false], ['max_errors', true]])
  })
})
