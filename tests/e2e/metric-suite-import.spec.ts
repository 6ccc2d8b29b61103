import { expect, test } from '@playwright/test'

test('importing a TOML metric suite into a configured evaluator replaces the suite only, and the step runs', async ({ page, request }) => {
  const created = await request.post('/api/workflows', {
    data: {
      name: 'Suite import',
      nodes: [
        { id: 'in', type: 'input', config: { fields: { question: { type: 'string', default: 'How do I reset my password?' }, answer: { type: 'string', default: 'Open Settings, choose Forgot password and follow the emailed link.' } } } },
        {
          id: 'judge', type: 'evaluator',
          config: {
            evaluation_type: 'metrics', content: '{{input.answer}}', context: '{{input.question}}', pass_threshold: 0.2, include_feedback: false,
            llm_default: { model: 'local:heuristic' }, metrics: [{ name: 'ClarityCoherence', weight: 1 }],
          },
        },
        { id: 'out', type: 'output', config: { value: '{{steps.judge.overall_score}}' } },
      ],
      edges: [{ from: 'in', to: 'judge' }, { from: 'judge', to: 'out' }],
    },
  })
  const { id } = await created.json()
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('node-judge').click()
  const suite = page.getByTestId('metric-suite')
  await suite.getByText('TOML import / export').click()
  await suite.getByLabel('TOML to import').fill('[llm_default]\nmodel = "local:heuristic"\n\n[[metrics]]\nname = "Relevance"\nweight = 0.6\n\n[[metrics]]\nname = "Coverage"\nweight = 0.4\n')
  await suite.getByRole('button', { name: 'Import pasted TOML' }).click()
  await expect(suite.getByRole('status')).toHaveText('Imported 2 metrics from the pasted TOML.')
  await expect(suite.getByLabel('Metric 1', { exact: true })).toHaveValue('Relevance')
  // The exported suite holds the suite, not the step's references.
  await expect(suite.getByTestId('metric-suite-toml')).toHaveValue(/name = "Coverage"/)
  await expect(suite.getByTestId('metric-suite-toml')).not.toHaveValue(/input\.answer/)
  await page.screenshot({ path: 'test-results/e2e/metric-suite-imported.png', fullPage: true })
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')

  const saved = await (await request.get(`/api/workflows/${id}`)).json()
  const judge = saved.definition.nodes.find((n: { id: string }) => n.id === 'judge').config
  expect(judge).toEqual({
    evaluation_type: 'metrics', content: '{{input.answer}}', context: '{{input.question}}', pass_threshold: 0.2, include_feedback: false,
    llm_default: { model: 'local:heuristic' }, metrics: [{ name: 'Relevance', weight: 0.6 }, { name: 'Coverage', weight: 0.4 }],
  })

  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('status-judge')).toContainText('succeeded', { timeout: 15_000 })
  const runs = await (await request.get(`/api/workflows/${id}/runs`)).json()
  const run = await (await request.get(`/api/runs/${runs[0].id}`)).json()
  expect(run.status).toBe('succeeded')
  expect(run.steps.judge.input.content).toBe('Open Settings, choose Forgot password and follow the emailed link.')
  expect(run.steps.judge.output.metrics.map((m: { metric_name: string }) => m.metric_name)).toEqual(['Relevance', 'Coverage'])
})
