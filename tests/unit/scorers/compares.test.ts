/**
 * The browser-safe list of what each built-in scorer compares with (engine/scorers/compares.ts)
 * against the scorers themselves: every one is listed, and one listed as comparing with `expected`
 * is refused without it, and runs given it or its option.
 */
import { describe, expect, it } from 'vitest'
import { builtinScorers, createProviders, evaluate } from '../../../engine'
import { SCORER_COMPARES } from '../../../engine/scorers/compares'

const providers = createProviders()
const editOutput = { operations: [], blocks: [], durationMs: 10 }
const values: Record<string, unknown> = { value: '2', values: ['x'], pattern: 'x', schema: { type: 'object' } }

describe('what each built-in scorer compares with', () => {
  it('lists every built-in scorer, and only those', () => {
    expect(Object.keys(SCORER_COMPARES).sort()).toEqual(builtinScorers.map(s => s.type).sort())
  })

  it.each(builtinScorers.map(s => s.type))('%s: refused without expected exactly when listed as comparing with it', async (type) => {
    const config = { evaluation_type: 'scorers', scorers: [{ type }] }
    const run = evaluate(config, { actual: editOutput }, { providers })
    if (SCORER_COMPARES[type]) {
      await expect(run).rejects.toThrow(`expected: is missing, and the scorer "${type}" (scorers[0]) compares the output with it`)
      const option = SCORER_COMPARES[type]![0]
      if (option) await expect(evaluate({ ...config, scorers: [{ type, options: { [option]: values[option] } }] }, { actual: '1' }, { providers })).resolves.toMatchObject({ scorer_results: [{ type }] })
    }
    else {
      await expect(run).resolves.toMatchObject({ scorer_results: [{ type }] })
    }
  })
})
