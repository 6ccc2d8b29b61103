import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

/** What the reports put on the screen first: the case table's texts, a run's outcome, changes against the labels. */
const EXAMPLES = new URL('../../examples/', import.meta.url)
const qualityGate = JSON.parse(readFileSync(new URL('quality-gate.json', EXAMPLES), 'utf8'))
const SUPPORT_CSV = readFileSync(new URL('datasets/support-questions.csv', EXAMPLES), 'utf8')
const LABELS = new Map(SUPPORT_CSV.trim().split('\n').slice(1).map(line => [line.split(',')[0]!, line.split(',').at(-1)!]))
const SUPPORT_ROWS = new Map(SUPPORT_CSV.trim().split('\n').slice(1).map(line => [line.split(',')[0]!, line]))

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    await page.screenshot({ path: `test-results/e2e/${name}-${scheme}-1280x720.png` })
    await page.screenshot({ path: `test-results/e2e/${name}-${scheme}-1280x720-full.png`, fullPage: true })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Starts a dataset run and waits for its end; its id. */
async function finishedRun(request: APIRequestContext, dataset: string, target: Record<string, unknown>, base = ''): Promise<string> {
  const started = await request.post(`${base}/api/dataset-runs`, { data: { dataset, target } })
  expect(started.status()).toBe(202)
  const { id } = await started.json()
  await expect.poll(async () => (await (await request.get(`${base}/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')
  return id
}

test('the case table shows each case\'s input, expected and judged verdicts, output and the judge\'s reason, filters the cases that disagree with their label by keyboard, and a case\'s run opens with its outcome first at the final attempt', async ({ page, request }) => {
  test.setTimeout(120_000)
  const stamp = Date.now()
  const workflow = await (await request.post('/api/workflows', { data: { ...qualityGate, name: `Quality gate ${stamp}` } })).json()
  const dataset = await (await request.post('/api/datasets', { data: { name: `support ${stamp}`, format: 'csv', text: SUPPORT_CSV } })).json()
  const runId = await finishedRun(request, dataset.id, { workflow_id: workflow.id })
  const { report } = await (await request.get(`/api/dataset-runs/${runId}`)).json()

  await page.goto(`/dataset-runs/${runId}`)
  const table = page.getByRole('table', { name: 'Case results' })
  await expect(table.getByRole('columnheader')).toHaveText([/^case/, 'input', 'expected', 'judged', 'score', 'output', 'reason', 'run'])
  const row = (id: string) => page.getByTestId('case-row').filter({ has: page.getByText(id, { exact: true }) })
  await expect(row('reset-1').getByTestId('case-input')).toHaveText(`question: ${SUPPORT_ROWS.get('reset-1')!.split(',')[1]}`)
  await expect(row('reset-1').getByRole('cell').nth(2)).toHaveText('pass')
  const first = report.results.find((r: { case_id: string }) => r.case_id === 'reset-1')
  await expect(row('reset-1').getByRole('cell').nth(3)).toHaveText(first.verdict)
  await expect(row('reset-1').getByTestId('case-output')).toHaveText(first.output)
  await expect(row('reset-1').getByTestId('case-reason')).not.toHaveText('—')

  // "disagrees with the label": the runs whose verdict is not their case's label, reached by keyboard.
  const disagreeing = report.results.filter((r: { case_id: string, verdict: string | null }) => r.verdict !== null && r.verdict !== LABELS.get(r.case_id))
  expect(disagreeing.length).toBeGreaterThan(0)
  const filter = page.getByTestId('filter-disagrees')
  await expect(filter).toHaveText(`disagrees with the label (${disagreeing.length})`)
  await filter.focus()
  await page.keyboard.press('Enter')
  await expect(filter).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('case-row')).toHaveCount(disagreeing.length)

  // The cut texts, whole, below the table.
  const wrong = disagreeing[0] as { case_id: string, output: string }
  await page.getByRole('button', { name: `Show all of ${wrong.case_id}` }).click()
  const detail = page.getByTestId('case-detail')
  await expect(detail).toContainText(`expected${LABELS.get(wrong.case_id)}`)
  await expect(detail).toContainText('disagrees with the label')
  await expect(detail).toContainText(wrong.output)
  expect(await violations(page)).toEqual([])
  await page.getByRole('heading', { name: 'Cases', exact: true }).scrollIntoViewIfNeeded()
  await shots(page, 'report-content-cases')
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await violations(page)).toEqual([])
  await page.emulateMedia({ colorScheme: 'light' })

  // A case's run: its verdict, the judge's reason and the final output above the steps; the retried step at its final attempt.
  await page.getByTestId('filter-all').click()
  await page.getByRole('link', { name: 'Open the run of reset-1' }).click()
  const outcome = page.getByTestId('run-final')
  await expect(outcome).toBeVisible()
  const run = await (await request.get(`/api/runs/${first.run_id}`)).json()
  await expect(page.getByTestId('run-final-output')).toHaveText(typeof run.output === 'string' ? run.output : JSON.stringify(run.output, null, 2))
  const judged = run.steps.judge.history.at(-1).output
  await expect(page.getByTestId('run-reason')).toContainText(`at judge: score ${judged.overall_score.toFixed(2)}`)
  await expect(page.getByTestId('run-reason')).toContainText(judged.feedback)
  const steps = page.getByRole('heading', { name: 'Steps', exact: true })
  expect((await outcome.boundingBox())!.y).toBeLessThan((await steps.boundingBox())!.y)
  // The quality gate drafts twice: the second draft is the one that passed.
  expect(run.steps.draft.attempts).toBe(2)
  await expect(page.getByTestId('attempt-draft-2')).toHaveAttribute('open', '')
  await expect(page.getByTestId('attempt-draft-1')).not.toHaveAttribute('open', '')
  await expect(page.getByTestId('attempt-draft-2').locator('summary')).toContainText('attempt 2 (final)')
  expect(await violations(page)).toEqual([])
  await shots(page, 'report-content-run')
})

test('a promptfoo case shows its vars as its input, not its assertions', async ({ page }) => {
  test.setTimeout(90_000)
  const app = process.env.E2E_LLM_APP!
  const config = `description: Greetings
prompts: ['Say {{answer}}']
providers: [openai:chat:gpt-4o-mini]
tests:
  - vars: { answer: hello }
    assert: [{ type: icontains, value: hello }]
`
  const name = `greetings ${Date.now()}`
  const imported = await page.request.post(`${app}/api/datasets/import-promptfoo`, { data: { name, config } })
  expect(imported.status()).toBe(201)
  const { dataset, workflow } = await imported.json()
  const saved = await (await page.request.post(`${app}/api/workflows`, { data: { ...workflow, name } })).json()
  const runId = await finishedRun(page.request, dataset.id, { workflow_id: saved.id }, app)
  await page.goto(`${app}/dataset-runs/${runId}`)
  await expect(page.getByTestId('case-input')).toHaveText(['answer: hello'])
})

test('against a baseline, a changed case says whether it now agrees with its label, and only those that now disagree count as regressions', async ({ page, request }) => {
  test.setTimeout(90_000)
  // Judged offline by a scorer: "contains" scores 1 the cases whose text names the product, 0 the others; the threshold decides.
  const evaluator = (threshold: number) => ({ evaluation_type: 'scorers', pass_threshold: threshold, scorers: [{ type: 'contains', threshold, options: { values: ['judgeflow'] } }] })
  const csv = ['id,actual,expected_verdict', 'a,judgeflow runs it,pass', 'b,judgeflow and more,pass', 'c,nothing here,fail', 'd,still nothing,pass'].join('\n')
  const dataset = await (await request.post('/api/datasets', { data: { name: `labelled ${Date.now()}`, format: 'csv', text: csv } })).json()
  const lenient = await finishedRun(request, dataset.id, { evaluator: evaluator(0) })
  const strict = await finishedRun(request, dataset.id, { evaluator: evaluator(0.5) })

  await page.goto(`/dataset-runs/${strict}`)
  await page.getByTestId('baseline-select').selectOption(lenient)
  await expect(page.getByTestId('comparison-summary')).toContainText('1 regression, 1 fix: read against the labels')
  // c was labelled fail: pass → fail is a fix; d was labelled pass: the same change is a regression.
  await expect(page.getByTestId('changed-regressed').getByRole('listitem')).toHaveText(['dpassed → failed now disagrees with the label (pass)'])
  await expect(page.getByTestId('changed-fixed').getByRole('listitem')).toHaveText(['cpassed → failed now agrees with the label (fail)'])
  await expect(page.getByTestId('filter-regressed')).toHaveText('regressed (1)')
  const row = (id: string) => page.getByTestId('case-row').filter({ has: page.getByText(id, { exact: true }) })
  await expect(row('c').getByTestId('change-badge')).toHaveText('now agrees with the label')
  await expect(row('d').getByTestId('change-badge')).toHaveText('now disagrees with the label')
  expect(await violations(page)).toEqual([])
  await page.getByRole('heading', { name: 'Against a baseline' }).scrollIntoViewIfNeeded()
  await shots(page, 'report-content-baseline')
})

test('a run with repeats shows pass^N and pass@N, each case\'s score spread, and its flaky gate', async ({ page, request }) => {
  test.setTimeout(90_000)
  const evaluator = { evaluation_type: 'scorers', pass_threshold: 0.5, scorers: [{ type: 'contains', threshold: 0.5, options: { values: ['judgeflow'] } }] }
  const csv = ['id,actual', 'a,judgeflow runs it', 'b,judgeflow and more', 'c,nothing here', 'd,judgeflow again'].join('\n')
  const dataset = await (await request.post('/api/datasets', { data: { name: `repeated ${Date.now()}`, format: 'csv', text: csv } })).json()
  const refused = await request.post('/api/dataset-runs', { data: { dataset: dataset.id, target: { evaluator }, gates: { max_flaky: 0 } } })
  expect(refused.status()).toBe(400)
  expect((await refused.json()).message).toContain('gates.max_flaky: needs repeat of 2 or more')
  const started = await request.post('/api/dataset-runs', { data: { dataset: dataset.id, target: { evaluator }, repeat: 3, gates: { max_flaky: 0, min_pass_rate: 0 } } })
  expect(started.status()).toBe(202)
  const { id } = await started.json()
  await expect.poll(async () => (await (await request.get(`/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')

  await page.goto(`/dataset-runs/${id}`)
  // A scorer gives the same verdict and score each time: 3 of 4 cases passed every repeat, none flaky, no spread.
  await expect(page.getByTestId('repeats')).toContainText('Every repeat passed75.0 %')
  await expect(page.getByTestId('repeats')).toContainText('a repeat passed: 75.0 %')
  await expect(page.getByTestId('flaky')).toContainText('0')
  await expect(page.getByRole('list', { name: 'Gates' })).toContainText('✓ max_flaky: required 0, actual 0')
  await expect(page.getByTestId('case-row')).toHaveCount(12)
  await expect(page.getByTestId('score-spread').first()).toHaveText('±0.00')
  // Scorers call no model: the run cost nothing.
  await expect(page.getByTestId('cost')).toContainText('Cost$0')
  // A case's details say how its repeats went.
  await page.getByRole('button', { name: 'Show all of c #2' }).click()
  await expect(page.getByTestId('case-repeats')).toHaveText(/^no repeat passed\s+· score SD 0\.000, from 0\.000 to 0\.000$/)
  await expect(page.getByTestId('case-row').first().getByRole('cell').nth(4)).toHaveAttribute('title', 'this case over its repeats: SD 0.000, from 1.000 to 1.000')
  expect(await violations(page)).toEqual([])
  await shots(page, 'report-content-repeats')
})

test('a judge panel\'s dataset run shows the agreement between its judges, and each case run\'s judges', async ({ page }) => {
  test.setTimeout(90_000)
  const app = process.env.E2E_LLM_APP!
  const evaluator = {
    evaluation_type: 'criteria', judges: ['openai:panel-yes', 'openai:panel-split', 'openai:panel-no'], pass_threshold: 0.7,
    criteria: [{ name: 'names the product', description: 'The text names the product', weight: 1 }],
  }
  const csv = ['id,actual', 'a,judgeflow runs it', 'b,nothing here', 'c,judgeflow again'].join('\n')
  const dataset = await (await page.request.post(`${app}/api/datasets`, { data: { name: `panel ${Date.now()}`, format: 'csv', text: csv } })).json()
  const runId = await finishedRun(page.request, dataset.id, { evaluator }, app)
  await page.goto(`${app}/dataset-runs/${runId}`)
  // a and c: yes and split pass, no fails; b: only yes passes. Pᵢ = 1/3 each, p_pass = 5/9 → κ = (1/3 − 41/81) / (40/81) = −0.35.
  await expect(page.getByRole('heading', { name: 'Agreement between judges' })).toBeVisible()
  const judges = page.getByTestId('judges-agreement')
  await expect(judges).toContainText('Between the panel’s judges (Fleiss’ κ)-0.35')
  await expect(judges).toContainText('over 3 runs · pairs agreeing 33.3 %')
  await expect(judges).toContainText('openai:panel-yes, openai:panel-split, openai:panel-no')
  await expect(page.getByTestId('confusion')).toHaveCount(0)
  await page.getByRole('button', { name: 'Show all of b' }).click()
  await expect(page.getByTestId('case-judges').getByRole('listitem')).toHaveText([
    '✓ pass openai:panel-yes, score 0.900', '✗ fail openai:panel-split, score 0.200', '✗ fail openai:panel-no, score 0.200',
  ])
  expect(await violations(page)).toEqual([])
  await page.getByRole('heading', { name: 'Agreement between judges' }).scrollIntoViewIfNeeded()
  await shots(page, 'report-content-panel')
})

test('a dataset run held to a budget shows what it cost and the cases the budget left, never as passes', async ({ page }) => {
  test.setTimeout(90_000)
  // This app's OpenAI endpoint is the fake LLM server: each answer reports 11 tokens in and 7 out, $0.00000585 at gpt-4o-mini's price.
  const app = process.env.E2E_LLM_APP!
  const created = await page.request.post(`${app}/api/workflows`, { data: {
    name: `Budget ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 0 } },
      // Seven tokens at most: the estimate (3 in, 7 out: $0.00000465 a case) is close to what a case costs.
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}', max_tokens: 7 }, position: { x: 220, y: 0 } },
      { id: 'judge', type: 'evaluator', position: { x: 440, y: 0 }, config: {
        evaluation_type: 'scorers', pass_threshold: 0, content: '{{steps.draft.text}}', scorers: [{ type: 'contains', threshold: 0, options: { values: ['echo'] } }],
      } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
  } })
  const workflow = await created.json()
  const csv = ['id,question', 'q1,one', 'q2,two', 'q3,three', 'q4,four'].join('\n')
  const dataset = await (await page.request.post(`${app}/api/datasets`, { data: { name: `budget ${Date.now()}`, format: 'csv', text: csv } })).json()
  const request = { dataset: dataset.id, target: { workflow_id: workflow.id }, concurrency: 1, max_cost_usd: 0.00001, gates: { min_pass_rate: 0 } }
  // Estimated at $0.0000186, over the budget: refused unless forced.
  const refused = await page.request.post(`${app}/api/dataset-runs`, { data: request })
  expect(refused.status()).toBe(400)
  expect((await refused.json()).message).toContain('over the budget of $0.00001')
  const started = await page.request.post(`${app}/api/dataset-runs`, { data: { ...request, force: true } })
  expect(started.status()).toBe(202)
  const { id } = await started.json()
  await expect.poll(async () => (await (await page.request.get(`${app}/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')

  await page.goto(`${app}/dataset-runs/${id}`)
  // The first case costs $0.00000585 (11 tokens in, 7 out); what is left of the budget cannot pay for
  // another at the estimated $0.00000465, so q2, q3 and q4 are left.
  await expect(page.getByTestId('cost')).toContainText(/Cost\$0\.00000\d/)
  await expect(page.getByTestId('cost')).toContainText('generation 18 · judge 0 tokens')
  await expect(page.getByTestId('not-run')).toHaveText('3 of 4 cases were not run (a budget or a cancel left them): they are not passes.')
  await expect(page.getByTestId('pass-rate')).toContainText('100.0 %')
  await expect(page.getByRole('list', { name: 'Gates' })).toContainText('✗ max_cost_usd: required 0.00001, actual 0.00000585')
  expect(await violations(page)).toEqual([])
  await shots(page, 'report-content-budget')
  // A case's run says what it cost, and each step's attempt what its call did.
  const report = (await (await page.request.get(`${app}/api/dataset-runs/${id}`)).json()).report
  await page.goto(`${app}/runs/${report.results[0].run_id}`)
  await expect(page.getByTestId('run-cost')).toHaveText(/^cost \$0\.00000\d+$/)
  await expect(page.getByTestId('attempt-draft-1').locator('summary')).toContainText(/11\+7 tokens\s+· \$0\.00000\d+/)
})
