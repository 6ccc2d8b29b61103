import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The house rules eslint.config.mjs enforces, each seen to fire on a planted violation at a path it
// covers, and to stay quiet where the rule does not apply.
const eslint = new ESLint({ cwd: process.cwd() })

const HOUSE_RULES = new Set(['no-restricted-imports', '@typescript-eslint/no-restricted-imports', 'no-restricted-syntax', 'judgeflow/function-length', 'max-lines', 'judgeflow/parse-through-text'])

async function messages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter(m => HOUSE_RULES.has(m.ruleId ?? '')).map(m => m.message)
}

/** A function `name` of `lines` lines of code, each a statement, with blank and comment lines between that do not count. */
function longFunction(name: string, lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  total += ${i}\n\n  // step ${i}`).join('\n')
  return `export function ${name}(): number {\n  let total = 0\n${body}\n  return total\n}\n`
}

describe('lint rules for the project layout', () => {
  it('engine/ imports nothing outward: not the server, the stores, the app layer, the CLI or a framework', async () => {
    for (const from of ['../../server/utils/context', '../../db', '../../core/store', '../cli/io', 'vue', 'h3']) {
      expect(await messages(`import { x } from '${from}'\nexport const y = x\n`, 'engine/steps/probe.ts')).toEqual([expect.stringContaining('engine/')])
    }
    expect(await messages(`import { x } from '../schema/workflow'\nexport const y = x\n`, 'engine/steps/probe.ts')).toEqual([])
  }, 60_000)

  it('a browser-safe engine module imports no Node built-in; the evaluation types\' page and output declarations no zod', async () => {
    expect(await messages(`import { readFileSync } from 'node:fs'\nexport const y = readFileSync\n`, 'engine/graph/probe.ts')).toEqual([expect.stringContaining('no Node built-ins')])
    expect(await messages(`import { join } from 'path'\nexport const y = join\n`, 'engine/schema/probe.ts')).toEqual([expect.stringContaining('no Node built-ins')])
    expect(await messages(`import { z } from 'zod'\nexport const y = z\n`, 'engine/evaluation-types/criteria/spec.ts')).toEqual([expect.stringContaining('keep zod off the page')])
    // The engine's own modules the page never loads may use both.
    expect(await messages(`import { z } from 'zod'\nimport { join } from 'node:path'\nexport const y = [z, join]\n`, 'engine/evaluator/probe.ts')).toEqual([])
    // The engine rule still holds in browser-safe modules.
    expect(await messages(`import { x } from '../../db'\nexport const y = x\n`, 'engine/graph/probe.ts')).toEqual([expect.stringContaining('engine/')])
  }, 60_000)

  it('the editor\'s page loads no step or evaluator schema; the validation worker does', async () => {
    const planted = `import { stepSpecs } from '../../engine/steps/specs'\nexport const y = stepSpecs\n`
    expect(await messages(planted, 'app/utils/probe.ts')).toEqual([expect.stringContaining('The page loads no step or evaluator schemas')])
    // engine/schema/common.ts builds zod schemas at load: a helper from it brings zod onto the page.
    expect(await messages(`import { splitModelRef } from '../../engine/schema/common'\nexport const y = splitModelRef\n`, 'app/utils/probe.ts'))
      .toEqual([expect.stringContaining('The page loads no step or evaluator schemas')])
    const component = `<script setup lang="ts">\nimport { evaluatorConfigSchema } from '~~/engine/schema/evaluator'\n\ndefineExpose({ evaluatorConfigSchema })\n</script>\n`
    expect(await messages(component, 'components/editor/Probe.vue'))
      .toEqual([expect.stringContaining('The page loads no step or evaluator schemas')])
    // A type, erased from the bundle, and the worker's own imports are fine.
    expect(await messages(`import type { Criterion } from '~~/engine/schema/evaluator'\nexport type Y = Criterion\n`, 'app/utils/probe.ts')).toEqual([])
    expect(await messages(planted, 'app/utils/validate.ts')).toEqual([])
  }, 60_000)

  it('the server never imports db/', async () => {
    expect(await messages(`import type { RunRow } from '~~/db'\nexport type Y = RunRow\n`, 'server/utils/probe.ts')).toEqual([expect.stringContaining('never imports db/')])
    expect(await messages(`import type { RunRow } from '~~/core'\nexport type Y = RunRow\n`, 'server/utils/probe.ts')).toEqual([])
    expect(await messages(`import type { RunRow } from '~~/db'\nexport type Y = RunRow\n`, 'server/api/runs/probe.get.ts')).toEqual([expect.stringContaining('never imports db/')])
  }, 60_000)

  it('the server imports from the project root with ~~/, never by climbing folders: one import style', async () => {
    expect(await messages(`import { x } from '../../../engine'\nexport const y = x\n`, 'server/api/runs/probe.get.ts')).toEqual([expect.stringContaining('with ~~/')])
    expect(await messages(`import { x } from '../../engine'\nexport const y = x\n`, 'server/utils/probe.ts')).toEqual([expect.stringContaining('with ~~/')])
    expect(await messages(`import { x } from '../utils/http'\nexport const y = x\n`, 'server/api/probe.get.ts')).toEqual([expect.stringContaining('with ~~/')])
    expect(await messages(`import { x } from '~~/engine'\nexport const y = x\n`, 'server/api/runs/probe.get.ts')).toEqual([])
    expect(await messages(`import { x } from './http'\nexport const y = x\n`, 'server/utils/probe.ts')).toEqual([])
  }, 60_000)

  it('core/ imports no database code: the stores implement its contract, and main/ opens one', async () => {
    for (const from of ['../db', '../../db/pg', '../main']) {
      expect(await messages(`import { x } from '${from}'\nexport const y = x\n`, 'core/runs/probe.ts'), from).toEqual([expect.stringContaining('core/ imports nothing from db/')])
    }
    expect(await messages(`import type { RunRow } from '../../db'\nexport type Y = RunRow\n`, 'core/runs/probe.ts')).toEqual([expect.stringContaining('core/ imports nothing from db/')])
    expect(await messages(`import { createSqliteStore } from '../db'\nexport const y = createSqliteStore\n`, 'main/probe.ts')).toEqual([])
  }, 60_000)

  it('process.env is read in core/config.ts alone', async () => {
    for (const file of ['engine/providers/probe.ts', 'core/probe.ts', 'server/utils/probe.ts', 'cli/commands/probe.ts', 'db/probe.ts', 'app/utils/probe.ts']) {
      expect(await messages(`export const key = process.env.OPENAI_API_KEY\n`, file), file).toEqual([expect.stringContaining('core/config.ts alone')])
    }
    expect(await messages(`export const key = process.env.OPENAI_API_KEY\n`, 'core/config.ts')).toEqual([])
  }, 60_000)

  it('the application throws JudgeflowErrors, not plain Errors', async () => {
    for (const file of ['core/probe.ts', 'server/utils/probe.ts', 'cli/commands/probe.ts', 'db/probe.ts', 'app/utils/probe.ts', 'core/config.ts']) {
      expect(await messages(`export function f() {\n  throw new Error('no')\n}\n`, file), file).toEqual([expect.stringContaining('JudgeflowError')])
    }
    const component = `<script setup lang="ts">\nfunction f() {\n  throw new Error('no')\n}\ndefineExpose({ f })\n</script>\n`
    expect(await messages(component, 'components/editor/Probe.vue')).toEqual([expect.stringContaining('JudgeflowError')])
    // An assertion's plain Error is its failed check, with promptfoo's message.
    expect(await messages(`export function f() {\n  throw new Error('no')\n}\n`, 'engine/assertions/probe.ts')).toEqual([])
  }, 60_000)

  it('a function holds at most 80 lines of code, blank and comment lines aside; a named exception may not grow', async () => {
    expect(await messages(longFunction('f', 80), 'engine/scorers/probe.ts')).toEqual([])
    expect(await messages(longFunction('f', 81), 'engine/scorers/probe.ts')).toEqual([expect.stringContaining('f has 81 lines of code, over the budget of 80')])
    const component = `<script setup lang="ts">\n${longFunction('f', 81).replace('export ', '')}defineExpose({ f })\n</script>\n`
    expect(await messages(component, 'components/editor/Probe.vue')).toEqual([expect.stringContaining('over the budget of 80')])
    // A named exception holds at its length, and fails when it grows.
    expect(await messages(longFunction('runCases', 83), 'engine/datasets/runner.ts')).toEqual([])
    expect(await messages(longFunction('runCases', 84), 'engine/datasets/runner.ts')).toEqual([expect.stringContaining('runCases has grown to 84 lines of code, past the 83')])
    // Tests and generated modules are not held to it.
    expect(await messages(longFunction('f', 81), 'tests/unit/probe.test.ts')).toEqual([])
    expect(await messages(longFunction('f', 81), 'engine/evaluation-types/probe.generated.ts')).toEqual([])
  }, 60_000)

  it('a module holds at most 300 lines; a named exception may not grow', async () => {
    const module = (lines: number) => Array.from({ length: lines }, (_, i) => `export const v${i} = ${i}`).join('\n') + '\n'
    expect(await messages(module(300), 'engine/scorers/probe.ts')).toEqual([])
    expect(await messages(module(301), 'engine/scorers/probe.ts')).toEqual([expect.stringContaining('too many lines (301)')])
    expect(await messages(module(337), 'engine/datasets/report.ts')).toEqual([])
    expect(await messages(module(338), 'engine/datasets/report.ts')).toEqual([expect.stringContaining('too many lines (338)')])
    // A page named with brackets is matched by its exception too.
    const page = (lines: number) => `<script setup lang="ts">\n${module(lines - 2)}</script>\n`
    expect(await messages(page(310), 'pages/workflows/[id].vue')).toEqual([])
    expect(await messages(page(311), 'pages/workflows/[id].vue')).toEqual([expect.stringContaining('too many lines (311)')])
    expect(await messages(module(301), 'tests/unit/probe.test.ts')).toEqual([])
  }, 60_000)

  it('user text is parsed through engine/text: no JSON.parse and no YAML, TOML or CSV parser elsewhere', async () => {
    const parse = `export const read = (text: string): unknown => JSON.parse(text)\n`
    for (const file of ['cli/commands/probe.ts', 'engine/evaluator/probe.ts', 'core/probe.ts', 'server/utils/probe.ts', 'db/probe.ts', 'app/utils/probe.ts']) {
      expect(await messages(parse, file), file).toEqual([expect.stringContaining('Read JSON through engine/text/safe-json.ts')])
    }
    expect(await messages(`export const read = (text: string): unknown => JSON?.['parse'](text)\n`, 'engine/evaluator/probe.ts')).toEqual([expect.stringContaining('Read JSON through')])
    for (const from of ['yaml', 'js-yaml', 'smol-toml', 'csv-parse/sync']) {
      expect(await messages(`import { parse } from '${from}'\nexport const y = parse\n`, 'engine/datasets/probe.ts'), from).toEqual([expect.stringContaining('Read YAML, TOML and CSV through engine/text')])
      expect(await messages(`export const y = () => import('${from}')\n`, 'app/utils/probe.ts'), from).toEqual([expect.stringContaining('Read YAML, TOML and CSV through')])
    }
    expect(await messages(`import * as yaml from 'yaml'\nexport const y = yaml\n`, 'engine/datasets/probe.ts')).toEqual([expect.stringContaining('Read YAML, TOML and CSV through')])
    expect(await messages(`import { parse, stringify } from 'yaml'\nexport const y = [parse, stringify]\n`, 'engine/datasets/probe.ts')).toEqual([expect.stringContaining('Read YAML, TOML and CSV through')])
    // A writer is not a parser.
    expect(await messages(`import { stringify } from 'smol-toml'\nexport const y = stringify\n`, 'engine/evaluator/probe.ts')).toEqual([])
    const component = `<script setup lang="ts">\nimport { parse } from 'yaml'\nconst read = (text: string): unknown => JSON.parse(text) ?? parse(text)\ndefineExpose({ read })\n</script>\n`
    expect(await messages(component, 'components/editor/evaluator/Probe.vue')).toEqual([expect.stringContaining('Read YAML, TOML and CSV through'), expect.stringContaining('Read JSON through')])
    // engine/text holds the readers, the tooling reads its tools' reports, and the tests read what they like.
    expect(await messages(`import { parse } from 'yaml'\nexport const read = (text: string): unknown => JSON.parse(text) ?? parse(text)\n`, 'engine/text/probe.ts')).toEqual([])
    for (const file of ['scripts/probe.ts', 'bench/probe.ts', 'tests/unit/probe.test.ts']) expect(await messages(parse, file), file).toEqual([])
    // The readers themselves pass, and a string of code holding JSON.parse is not a call.
    expect(await messages(`import { readJson } from '../text/safe-json'\nexport const read = (text: string) => readJson(text, 64)\nexport const driver = 'JSON.parse(line)'\n`, 'engine/evaluator/probe.ts')).toEqual([])
  }, 60_000)
})
