import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkDocument } from '../../../app/utils/validate'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { defaultRegistry, validateWorkflow } from '../../../engine'
import { compare } from '../../../engine/steps/condition/compare'
import { scorerOptionPatterns } from '../../../engine/scorers/patterns'
import { schemaPatterns } from '../../../engine/text/schema-patterns'
import { apiRoutes } from '../../support/api-routes'
import { cli } from '../../support/cli'

const served = vi.hoisted(() => ({ app: undefined as Judgeflow | undefined }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

/** RE2 refuses this one when it compiles it: 999 × 999 repeats is past its program size. */
const TOO_LARGE = '([ab]{1,999}c){1,999}'
const TOO_LARGE_REASON = `the pattern /${TOO_LARGE}/ is not a valid regular expression (error parsing regexp: expression too large); patterns use RE2 syntax, without backreferences or lookaheads`

const condition = (right: unknown, extra: Record<string, unknown> = {}) => ({
  name: 'gate',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'check', type: 'condition', config: { left: '{{input.text}}', op: 'matches', right, ...extra } },
  ],
  edges: [{ from: 'in', to: 'check' }],
})

const scorers = (list: unknown[], assert?: unknown[]) => ({
  name: 'judged',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'judge', type: 'evaluator', config: assert ? { evaluation_type: 'assertions', content: '{{input.text}}', assert } : { evaluation_type: 'scorers', content: '{{input.text}}', scorers: list } },
  ],
  edges: [{ from: 'in', to: 'judge' }],
})

/** What the server's and the CLI's validation (the step registry) and the editor's (its worker's check) each report. */
function problemsEverywhere(workflow: unknown) {
  const server = validateWorkflow(workflow, defaultRegistry).problems.map(p => ({ node: p.node, path: p.path, message: p.message }))
  const editor = checkDocument(workflow).problems.map(p => ({ node: p.node, path: p.path, message: p.message }))
  expect(editor).toEqual(server)
  return server
}

describe('user patterns are compiled when a workflow is validated, as its run compiles them', () => {
  it('reports a condition\'s too large `matches` pattern on its step and field, with RE2\'s reason, as the run would fail it', () => {
    expect(problemsEverywhere(condition(TOO_LARGE))).toEqual([
      { node: 'check', path: 'nodes.check.config.right', message: `node "check": nodes.check.config.right: ${TOO_LARGE_REASON}` },
    ])
    // The run's own refusal of it: the same reason.
    expect(() => compare('abc', 'matches', TOO_LARGE)).toThrow(`condition right: ${TOO_LARGE_REASON}`)
    expect(problemsEverywhere(condition(TOO_LARGE, { ignore_case: true }))[0]?.message).toContain('expression too large')
  })

  it('reports a pattern RE2 cannot read, and one that is not a text; passes a valid pattern and one a reference gives the run', () => {
    expect(problemsEverywhere(condition('(a)\\1'))[0]?.message).toMatch(/^node "check": nodes\.check\.config\.right: the pattern \/\(a\)\\1\/ is not a valid regular expression \(error parsing regexp: invalid escape sequence/)
    expect(problemsEverywhere(condition('(unclosed'))[0]?.message).toContain('missing closing )')
    expect(problemsEverywhere(condition(42))).toEqual([{ node: 'check', path: 'nodes.check.config.right', message: 'node "check": nodes.check.config.right: must be a pattern (a text) for "matches"' }])
    expect(problemsEverywhere(condition('^\\d+$'))).toEqual([])
    expect(problemsEverywhere(condition('^hello$', { ignore_case: true }))).toEqual([])
    expect(problemsEverywhere(condition('{{input.pattern}}'))).toEqual([])
    expect(problemsEverywhere(condition('^{{input.prefix}}\\d+$'))).toEqual([])
    // Another operator's right is no pattern.
    expect(problemsEverywhere({ ...condition(TOO_LARGE), nodes: [{ id: 'in', type: 'input' }, { id: 'check', type: 'condition', config: { left: '{{input.text}}', op: 'contains', right: TOO_LARGE } }] })).toEqual([])
  })

  it('reports the patterns in the scorers\' options: regex, content-quality and a JSON Schema\'s pattern and patternProperties', () => {
    const at = (path: string) => ({ node: 'judge', path: `nodes.judge.config.${path}`, message: `node "judge": nodes.judge.config.${path}: ${TOO_LARGE_REASON}` })
    expect(problemsEverywhere(scorers([{ type: 'regex', options: { pattern: TOO_LARGE, ignore_case: true } }]))).toEqual([at('scorers[0].options.pattern')])
    expect(problemsEverywhere(scorers([{ type: 'json-valid' }, { type: 'content-quality', options: { patterns: ['fine', { pattern: TOO_LARGE, ignore_case: true }, TOO_LARGE] } }]))).toEqual([
      at('scorers[1].options.patterns[1].pattern'), at('scorers[1].options.patterns[2]'),
    ])
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: TOO_LARGE }, pattern: { type: 'string' } }, patternProperties: { [TOO_LARGE]: {} } }
    expect(problemsEverywhere(scorers([{ type: 'json-schema', options: { schema } }]))).toEqual([
      at('scorers[0].options.schema.properties.code.pattern'), at(`scorers[0].options.schema.patternProperties.${TOO_LARGE}`),
    ])
    expect(problemsEverywhere(scorers([{ type: 'regex', options: { pattern: '^ok$' } }, { type: 'regex', options: { pattern: '{{input.pattern}}' } }]))).toEqual([])
  })

  it('reports an assertion\'s bad pattern: regex, and the patterns of an is-json schema', () => {
    expect(problemsEverywhere(scorers([], [{ type: 'regex', value: TOO_LARGE }]))[0]?.message).toBe(`node "judge": nodes.judge.config.assert[0]: the pattern /${TOO_LARGE}/ is not a valid regular expression (error parsing regexp: expression too large); patterns use RE2 syntax, without backreferences or lookaheads`)
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: TOO_LARGE } } }
    expect(problemsEverywhere(scorers([], [{ type: 'is-json', value: schema }]))).toEqual([
      { node: 'judge', path: 'nodes.judge.config.assert[0]', message: `node "judge": nodes.judge.config.assert[0]: its schema's properties.id.pattern: ${TOO_LARGE_REASON}` },
    ])
    expect(problemsEverywhere(scorers([], [{ type: 'is-json', value: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } } }]))).toEqual([])
  })

  it('lists a scorer\'s patterns with the flags its run compiles them with, and a schema\'s patterns outside its data', () => {
    expect(scorerOptionPatterns('regex', { pattern: 'a', ignore_case: true })).toEqual([{ path: 'options.pattern', source: 'a', flags: { ignoreCase: true } }])
    expect(scorerOptionPatterns('content-quality', { patterns: ['a', { pattern: 'b' }, { pattern: 'c', ignore_case: true }] })).toEqual([
      { path: 'options.patterns[0]', source: 'a', flags: {} },
      { path: 'options.patterns[1].pattern', source: 'b', flags: { ignoreCase: false } },
      { path: 'options.patterns[2].pattern', source: 'c', flags: { ignoreCase: true } },
    ])
    expect(schemaPatterns({ items: [{ pattern: 'a' }], propertyNames: { pattern: 'b' }, const: { pattern: 'data' }, enum: [{ pattern: 'data' }], default: { pattern: 'data' } })).toEqual([
      { path: 'items[0].pattern', source: 'a' }, { path: 'propertyNames.pattern', source: 'b' },
    ])
  })
})

describe('the API and the CLI report the same problem before anything runs', () => {
  let call: Awaited<ReturnType<typeof apiRoutes>>
  beforeAll(async () => {
    call = await apiRoutes([['post', '/api/workflows', 'workflows/index.post.ts'], ['post', '/api/workflows/validate', 'workflows/validate.post.ts']])
  })
  afterEach(async () => {
    await served.app?.close(0)
    served.app = undefined
  })

  it('answers a saved workflow with the problem, and validation with ok false', async () => {
    served.app = createJudgeflow(loadConfig({}), { store: createSqliteStore(openDatabase(':memory:')), retention: false })
    const post = (path: string) => call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(condition(TOO_LARGE)) })
    const problem = { code: 'invalid_config', node: 'check', path: 'nodes.check.config.right', message: `node "check": nodes.check.config.right: ${TOO_LARGE_REASON}` }
    const saved = await post('/api/workflows')
    expect(saved.status).toBe(201)
    expect(saved.body?.problems).toEqual([problem])
    expect(await post('/api/workflows/validate')).toEqual({ status: 200, body: { ok: false, problems: [problem] } })
  })

  it('exits `judgeflow validate` with 2, naming the step and field', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'judgeflow-patterns-')), 'gate.json')
    writeFileSync(file, JSON.stringify(condition(TOO_LARGE)))
    const { code, err } = await cli(['validate', file])
    expect(code).toBe(2)
    expect(err).toBe(`node "check": nodes.check.config.right: ${TOO_LARGE_REASON}`)
  })
})
