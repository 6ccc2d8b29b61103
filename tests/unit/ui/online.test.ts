import { describe, expect, it } from 'vitest'
import { costPerDay, draftOf, emptyDraft, filterText, problemsByField, ruleBody, scoreSeries, type OnlineRuleView } from '../../../app/utils/online'

const rule: OnlineRuleView = {
  id: 'r1', name: 'helpful', enabled: false, evaluator: { workflow_id: 'w1', step_id: 'judge' },
  filter: { service_name: 'support-bot', attributes: { tier: 'gold' } }, sample_rate: 0.25, max_per_minute: null, max_cost_usd_per_day: 2,
  created_at: '2026-12-01T00:00:00.000Z', updated_at: '2026-12-01T00:00:00.000Z', decisions_24h: { scored: 3 },
}

describe('the Online page\'s reading of the API', () => {
  it('puts each problem of a 400 beside the field it names, and a message led by a path too', () => {
    expect(problemsByField({ data: { message: 'Invalid body: …', data: { problems: [{ path: 'sample_rate', message: 'must be from 0 to 1' }, { path: 'name', message: 'must not be empty' }] } } }))
      .toEqual({ sample_rate: 'must be from 0 to 1', name: 'must not be empty' })
    expect(problemsByField({ data: { message: 'evaluator.step_id: workflow "Q" has no evaluator step "draft"' } }))
      .toEqual({ 'evaluator.step_id': 'workflow "Q" has no evaluator step "draft"' })
    expect(problemsByField(new Error('Network down'))).toEqual({ '': 'Network down' })
  })

  it('writes the form as the API\'s body: empty limits are no limit, the filter\'s attributes kept, a bad number left for the API to name', () => {
    const body = ruleBody({ ...draftOf(rule), model: ' gpt-4o ', maxPerMinute: 'ten' }, rule)
    expect(body).toEqual({
      name: 'helpful', enabled: false, evaluator: { workflow_id: 'w1', step_id: 'judge' },
      filter: { attributes: { tier: 'gold' }, service_name: 'support-bot', model: 'gpt-4o' },
      sample_rate: 0.25, max_per_minute: 'ten', max_cost_usd_per_day: 2,
    })
    expect(ruleBody({ ...emptyDraft(), name: 'n', workflowId: 'w', stepId: 's', maxPerMinute: '' })).toMatchObject({ max_per_minute: null, max_cost_usd_per_day: null, filter: {} })
  })

  it('says the filter in words', () => {
    expect(filterText(rule.filter)).toBe('service support-bot, tier = gold')
    expect(filterText({})).toBe('every GenAI span')
  })

  it('buckets scores by hour within two days, else by day, with the cost of each day', () => {
    const hourly = scoreSeries([
      { score: 0.8, verdict: 'pass', updated_at: '2026-12-03T08:10:00.000Z' },
      { score: 0.2, verdict: 'fail', updated_at: '2026-12-03T08:40:00.000Z' },
      { score: 1, verdict: 'pass', updated_at: '2026-12-03T07:05:00.000Z' },
    ])
    expect(hourly).toEqual([
      { label: '2026-12-03 07:00', passRate: 1, meanScore: 1, count: 1 },
      { label: '2026-12-03 08:00', passRate: 0.5, meanScore: 0.5, count: 2 },
    ])
    expect(scoreSeries([
      { score: 0.5, verdict: 'pass', updated_at: '2026-12-01T08:00:00.000Z' },
      { score: null, verdict: 'fail', updated_at: '2026-12-03T08:00:00.000Z' },
    ]).map(p => [p.label, p.passRate, p.meanScore])).toEqual([['2026-12-01', 1, 0.5], ['2026-12-03', 0, null]])
    expect(costPerDay([
      { cost_usd: 0.5, updated_at: '2026-12-02T10:00:00.000Z' }, { cost_usd: null, updated_at: '2026-12-02T11:00:00.000Z' },
      { cost_usd: 0.25, updated_at: '2026-12-02T12:00:00.000Z' }, { cost_usd: 1, updated_at: '2026-12-01T12:00:00.000Z' },
    ])).toEqual([{ day: '2026-12-01', usd: 1 }, { day: '2026-12-02', usd: 0.75 }])
  })
})
