import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import { experimentReport } from '../../../engine/experiments/recommend'

/** examples/experiment-judgments.json: v1 (current best) and v2, two documents, two runs each, every mark given. */
const example = JSON.parse(readFileSync('examples/experiment-judgments.json', 'utf8'))
const refusal = (file: unknown) => {
  try {
    experimentReport(file)
  }
  catch (error) {
    return error as { code: string, message: string, details: Array<{ path: string, message: string }> }
  }
  throw new Error('the report was made')
}

describe('a judgments file whose judgments would skew the report is refused, each fault named', () => {
  it('refuses a run judged twice rather than counting it twice (n = 5 would have moved the mean)', () => {
    const twice = structuredClone(example)
    twice.judgments.push(structuredClone(twice.judgments[1]))
    const error = refusal(twice)
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toContain('judgments[8]: variant "v1", document "contract-review", run 2 is judged twice (also judgments[1])')
    expect(error.details).toEqual([{ path: 'judgments[8]', message: expect.stringContaining('judged twice') }])
  })
  it('names every duplicate, not only the first', () => {
    const twice = structuredClone(example)
    twice.judgments.push(structuredClone(twice.judgments[0]), structuredClone(twice.judgments[5]))
    const { message } = refusal(twice)
    expect(message).toContain('judgments[8]: variant "v1", document "contract-review", run 1 is judged twice (also judgments[0])')
    expect(message).toContain('judgments[9]: variant "v2", document "contract-review", run 2 is judged twice (also judgments[5])')
  })
  it('refuses a mark of a problem the document does not have, naming it and the known ids', () => {
    const unknown = structuredClone(example)
    const ids = unknown.documents[0].problems.map((p: { id: string }) => p.id)
    unknown.judgments[4].problems.Z9 = '○'
    const { message } = refusal(unknown)
    expect(message).toContain(`judgments[4].problems.Z9: "Z9" is not a problem of document "contract-review" (${ids.join(', ')})`)
  })
  it('refuses a judgment without a mark for every problem rather than counting the missing mark as ×', () => {
    const missing = structuredClone(example)
    const [first, second] = Object.keys(missing.judgments[6].problems) as [string, string]
    delete missing.judgments[6].problems[first]
    delete missing.judgments[6].problems[second]
    const { message, details } = refusal(missing)
    expect(message).toContain(`judgments[6].problems: variant "v2", document "api-spec-review", run 1 has no mark for ${first}, ${second}`)
    expect(details).toHaveLength(1)
  })
  it('judgeflow experiment report exits 2 naming the duplicate, and prints no report', async () => {
    const twice = structuredClone(example)
    twice.judgments.push(structuredClone(twice.judgments[3]))
    const path = join(mkdtempSync(join(tmpdir(), 'judgeflow-judgments-')), 'round.json')
    writeFileSync(path, JSON.stringify(twice))
    const { code, out, err } = await cli(['experiment', 'report', path])
    expect({ code, out }).toEqual({ code: 2, out: '' })
    expect(err).toContain('judgments[8]: variant "v1", document "api-spec-review", run 2 is judged twice (also judgments[3])')
  })
  it('still reports a complete file', () => {
    expect(experimentReport(example).variants.v1!.overall_mean).toBe(2.5)
  })
})
