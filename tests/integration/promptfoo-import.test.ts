import { dirname } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText } from '../support/fake-llm'
import { parseSse, useServersWithFakeLLM } from '../support/app-server'
import { snoopingPython } from '../support/snoop'

const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll, afterEach })

const config = `description: Greetings
prompts:
  - "Greet {{ name }} in one line."
providers:
  - openai:chat:gpt-4o-mini
tests:
  - description: ada
    vars: { name: Ada }
    assert:
      - { type: icontains, value: "{{name}}" }
  - description: bob
    vars: { name: Bob }
    assert:
      - { type: icontains, value: "{{name}}" }
`

describe('importing a promptfoo config over HTTP', () => {
  it('creates the dataset, answers the evaluator and the workflow; the workflow runs over the dataset', async () => {
    fake.onRequest(request => ({ text: lastUserText(request).includes('Ada') ? 'Hello Ada!' : 'Sorry, who are you?' }))
    const app = await start({ env: fake.env() })
    const imported = await app.api('/api/datasets/import-promptfoo', { body: { config } })
    expect(imported).toMatchObject({
      status: 201,
      body: {
        dataset: { name: 'Greetings', version: 1, case_count: 2 },
        evaluator: { evaluation_type: 'assertions', assert: '{{input.assert}}' },
      },
    })
    expect(imported.body.workflow.nodes.map((n: { id: string }) => n.id)).toEqual(['input', 'generate', 'judge'])

    const workflow = await app.api('/api/workflows', { body: imported.body.workflow })
    expect(workflow.status).toBe(201)
    const started = await app.api('/api/dataset-runs', { body: { dataset: 'Greetings', target: { workflow_id: workflow.body.id } } })
    expect(started.status).toBe(202)
    const events = parseSse(await (await fetch(`${app.url}/api/dataset-runs/${started.body.id}/events`)).text())
    expect(events.at(-1)).toMatchObject({ event: 'finished', data: { status: 'finished' } })
    const run = await app.api(`/api/dataset-runs/${started.body.id}`)
    expect(run.body.report).toMatchObject({ cases: 2, passed: 1, failed: 1, errored: 0 })
    expect(Object.fromEntries(run.body.report.results.map((r: { case_id: string, verdict: string }) => [r.case_id, r.verdict]))).toEqual({ ada: 'pass', bob: 'fail' })
    expect(fake.requests).toHaveLength(2)
  })

  it('refuses a config it cannot read, naming the field; a taken name is a conflict', async () => {
    const app = await start({ env: fake.env() })
    const fileTests = await app.api('/api/datasets/import-promptfoo', { body: { config: 'tests: file://tests.csv' } })
    expect(fileTests).toMatchObject({ status: 400, body: { message: expect.stringContaining('tests[0]: "file://tests.csv" is a file reference') } })
    expect((await app.api('/api/datasets/import-promptfoo', { body: { config: 'tests: [{ vars: 3 }]' } })).body.message).toMatch(/^the promptfoo config, tests\[0\]\.vars: /)
    expect((await app.api('/api/datasets/import-promptfoo', { body: { name: 'mine', config } })).status).toBe(201)
    expect((await app.api('/api/datasets/import-promptfoo', { body: { name: 'mine', config } })).status).toBe(409)
    expect((await app.api('/api/datasets', {})).body.map((d: { name: string }) => d.name)).toEqual(['mine'])
  })

  it('refuses a config with an assertion it cannot run, and a rubric without a grader, creating nothing', async () => {
    const app = await start({ env: fake.env() })
    const moderated = `${config}      - { type: moderation }\n`
    const refused = await app.api('/api/datasets/import-promptfoo', { body: { name: 'moderated', config: moderated } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/^the promptfoo config has 1 assertion judgeflow cannot run, so nothing was imported .*moderation ×1 \("bob"\)/)
    const rubric = `${config}      - { type: llm-rubric, value: Is friendly }\n`
    // Without prompts and providers nothing could grade the rubric: refused, nothing created.
    const ungraded = await app.api('/api/datasets/import-promptfoo', { body: { name: 'rubric', config: rubric.replace(/prompts:[\s\S]*?tests:/, 'tests:') } })
    expect(ungraded.status).toBe(400)
    expect(ungraded.body.message).toContain('names no grader')
    expect((await app.api('/api/datasets', {})).body).toEqual([])
    // With them, the provider under test grades, and the answer says so.
    const byProvider = await app.api('/api/datasets/import-promptfoo', { body: { name: 'by provider', config: rubric } })
    expect(byProvider.status).toBe(201)
    expect(byProvider.body.notes).toContain('no grader is named, so each prompt × provider\'s own model grades its model-graded assertions: set defaultTest.options.provider, or --grader, to choose one (promptfoo would use its own default grader)')
    const graded = await app.api('/api/datasets/import-promptfoo', { body: { name: 'rubric', config: rubric, judge: 'openai:gpt-4o-mini' } })
    expect(graded.status).toBe(201)
    expect(graded.body.evaluator.model).toBe('openai:gpt-4o-mini')
  })
})

describe('code assertions over HTTP', () => {
  const body = { config: { evaluation_type: 'assertions', assert: [{ type: 'javascript', value: 'output.includes(context.vars.word)' }], vars: { word: 'Ada' } }, input: { content: 'Hello Ada' } }

  it('are refused unless the server is configured to run code, and then run in the sandbox', async () => {
    const refusing = await start({ env: fake.env() })
    const refused = await refusing.api('/api/evaluate', { body })
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringContaining('set JUDGEFLOW_ALLOW_CODE=1 where the server runs') } })

    const allowing = await start({ env: { ...fake.env(), JUDGEFLOW_ALLOW_CODE: '1', JUDGEFLOW_CODE_TIMEOUT_MS: '500' } })
    const passed = await allowing.api('/api/evaluate', { body })
    expect(passed).toMatchObject({ status: 200, body: { passed: true, assertions: [{ type: 'javascript', pass: true }] } })
    const failed = await allowing.api('/api/evaluate', { body: { ...body, input: { content: 'Hello Bob' } } })
    expect(failed).toMatchObject({ status: 200, body: { passed: false, assertions: [{ pass: false, reason: expect.stringContaining('Custom function returned false') }] } })
    // A script that never ends is killed at the time limit: the server answers, and stays healthy.
    const endless = await allowing.api('/api/evaluate', { body: { ...body, config: { ...body.config, assert: [{ type: 'javascript', value: 'while (true) {}\nreturn true' }] } } })
    expect(endless).toMatchObject({ status: 200, body: { passed: false, assertions: [{ reason: expect.stringMatching(/Custom function threw error: .*500 ms/) }] } })
    expect((await allowing.api('/api/health', {})).status).toBe(200)
  })

  it('run in a sandbox: the code finds none of the server\'s keys, processes or files', async () => {
    const allowing = await start({ env: { ...fake.env(), JUDGEFLOW_ALLOW_CODE: '1' } })
    // What a hostile assertion would try: every process's environment, the server's folder, its database.
    const snoop = snoopingPython({ folders: [process.cwd(), dirname(allowing.dbPath)] })
    const snooped = await allowing.api('/api/evaluate', { body: { config: { evaluation_type: 'assertions', assert: [{ type: 'python', value: snoop }] }, input: { content: 'x' } } })
    expect(snooped.status).toBe(200)
    const reason = snooped.body.assertions[0].reason as string
    expect(reason).toContain('FileNotFoundError')
    for (const secret of [fake.env().OPENAI_API_KEY!, fake.env().ANTHROPIC_API_KEY!, 'JUDGEFLOW_DB', 'judgeflow.db']) expect(reason).not.toContain(secret)
  })

  it('are refused, naming what to install, where no sandbox is available', async () => {
    // No bwrap on the server's PATH.
    const bare = await start({ env: { ...fake.env(), JUDGEFLOW_ALLOW_CODE: '1', PATH: '/nonexistent' } })
    const refused = await bare.api('/api/evaluate', { body })
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringContaining('which this server runs only in a sandbox, and bubblewrap (bwrap), which isolates user code, is not installed: install bubblewrap') } })
    expect(bare.output()).toContain('JUDGEFLOW_ALLOW_CODE is set, but code assertions, transforms and code steps will be refused: bubblewrap (bwrap)')
  })
})
