import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contentTypes, deterministicTypes, evaluationTypes, evaluationTypeSpecs, formSpecFor, type EvaluationType } from '../../../engine/schema/evaluation-types'
import { evaluationTypeFields, sharedFields } from '../../../engine/evaluation-types/config-schema'
import { evaluationTypeDefinition, evaluationTypeDefinitions } from '../../../engine/evaluation-types/registry'
import { fieldsOfSpec, SECTION_AND_INPUT_FIELDS, type EvaluationTypeSpec, type FormSection } from '../../../engine/evaluation-types/spec'
import { EVALUATION_INPUTS } from '../../../engine/evaluation-types/fields'
import { fieldText } from '../../../app/utils/field-labels'
import { TYPE_OWNED_FIELDS } from '../../../engine/evaluation-types/specs'
import { createProviders, evaluate, evaluatorConfigSchema } from '../../../engine'
import { renderLists, staleLists, typeFolders } from '../../../scripts/evaluation-types'

const root = join(import.meta.dirname, '../../..')
const typesDir = join(root, 'engine/evaluation-types')
const form = readFileSync(join(root, 'components/editor/EvaluatorForm.vue'), 'utf8')
const panel = readFileSync(join(root, 'components/editor/NodePanel.vue'), 'utf8')
const providers = createProviders({ env: {} })
const BUILT_IN: string[] = ['scoring', 'criteria', 'comparison', 'rubric', 'metrics', 'scorers', 'trace', 'assertions']

describe('evaluation type registry', () => {
  it('has one folder per type, each with a definition in all three lists, in the same order', () => {
    const folders = readdirSync(typesDir).filter(name => statSync(join(typesDir, name)).isDirectory()).sort()
    expect([...evaluationTypes].sort()).toEqual(folders)
    expect(evaluationTypeSpecs.map(spec => spec.type)).toEqual(evaluationTypes)
    expect(Object.keys(evaluationTypeFields)).toEqual(evaluationTypes)
    expect(evaluationTypeDefinitions.map(definition => definition.type)).toEqual(evaluationTypes)
    // The editor's components import the specs: they stay plain data, without zod.
    for (const file of ['spec.ts', 'specs.ts', 'specs.generated.ts', ...folders.map(folder => `${folder}/spec.ts`)]) {
      expect(readFileSync(join(typesDir, file), 'utf8'), file).not.toMatch(/from '(zod|node:[a-z_]+)'/)
    }
  })

  it('lists every type folder: the generated lists are current', () => {
    expect(typeFolders()).toEqual([...evaluationTypes].sort())
    expect(staleLists(), 'run `npm run generate:evaluation-types`').toEqual([])
    // The editor's order is each spec's own number.
    expect(new Set(evaluationTypeSpecs.map(spec => spec.order)).size).toBe(evaluationTypes.length)
    // The built-in types keep their places; a new one goes where its number puts it.
    expect(evaluationTypes.filter(type => BUILT_IN.includes(type))).toEqual(BUILT_IN)
  })

  it('writes a new folder into each of the three lists, and refuses a folder without its modules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-types-'))
    try {
      for (const folder of ['pairwise_vote', 'criteria']) {
        mkdirSync(join(dir, folder))
        for (const file of ['spec.ts', 'schema.ts', 'index.ts']) writeFileSync(join(dir, folder, file), '')
      }
      mkdirSync(join(dir, 'shared'))
      const lists = renderLists(dir)
      expect(lists['specs.generated.ts']).toContain(`import { pairwiseVoteSpec } from './pairwise_vote/spec'`)
      expect(lists['specs.generated.ts']).toContain('  pairwise_vote: pairwiseVoteSpec,\n')
      expect(lists['schemas.generated.ts']).toContain(`import { pairwiseVoteFields, pairwiseVoteChecks } from './pairwise_vote/schema'`)
      expect(lists['definitions.generated.ts']).toContain(`import { pairwiseVoteType } from './pairwise_vote'`)
      expect(lists['definitions.generated.ts']).toMatch(/criteria: criteriaType,\n {2}pairwise_vote: pairwiseVoteType,\n/)
      for (const text of Object.values(lists)) expect(text).not.toContain('shared')
      expect(staleLists(dir)).toEqual(['specs.generated.ts', 'schemas.generated.ts', 'definitions.generated.ts'])
      rmSync(join(dir, 'pairwise_vote', 'schema.ts'))
      expect(() => renderLists(dir)).toThrow('engine/evaluation-types/pairwise_vote/schema.ts is missing')
    }
    finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('gives every type a schema, an evaluate function, its inputs and its form sections', () => {
    for (const spec of evaluationTypeSpecs) {
      const definition = evaluationTypeDefinition(spec.type)
      expect(definition, spec.type).toMatchObject(spec)
      expect(definition.fields, spec.type).toBe(evaluationTypeFields[spec.type])
      expect(typeof definition.evaluate, spec.type).toBe('function')
      expect(spec.label.length, spec.type).toBeGreaterThan(2)
      expect(spec.description.length, spec.type).toBeGreaterThan(10)
      expect(spec.inputs.length, spec.type).toBeGreaterThan(0)
      expect(spec.sections.length, spec.type).toBeGreaterThan(0)
      // A judged type picks its judge in the form; a deterministic one has no judge to pick.
      expect(spec.sections.includes('judge'), spec.type).toBe(spec.usesJudge)
      expect(spec.judgesContent && !spec.inputs.includes('content'), spec.type).toBe(false)
      for (const group of definition.exclusive ?? []) {
        for (const key of typeof group === 'string' ? [group] : group) expect(Object.keys(definition.fields), `${spec.type}: ${key}`).toContain(key)
      }
      for (const key of Object.keys(definition.fields)) expect(Object.keys(sharedFields), `${spec.type}: ${key}`).not.toContain(key)
    }
  })

  it('names, for the editor, every config field of each type among the fields of its form sections or its own described settings', () => {
    for (const spec of evaluationTypeSpecs as readonly EvaluationTypeSpec[]) {
      // A step's trace settings are its `trace_options` (its `trace` is the data scored).
      const own = Object.keys(evaluationTypeFields[spec.type as EvaluationType]).map(key => (key === 'trace' ? 'trace_options' : key))
      for (const key of own) {
        expect(fieldsOfSpec(spec).has(key), `${spec.type}: ${key}`).toBe(true)
        expect(TYPE_OWNED_FIELDS.has(key), key).toBe(true)
      }
      // A setting it describes is a field of its schema, with words for people, and no section's nor input's.
      for (const [key, setting] of Object.entries(spec.settings ?? {})) {
        expect(own, `${spec.type}: ${key}`).toContain(key)
        expect(setting.label.length * setting.help.length, `${spec.type}: ${key}`).toBeGreaterThan(0)
        expect(SECTION_AND_INPUT_FIELDS.has(key), `${spec.type}: ${key}`).toBe(false)
        expect(fieldText('evaluator', key), key).toEqual({ label: setting.label, help: setting.help })
      }
      // What it reads is labelled from the one table of inputs.
      for (const input of spec.inputs) expect(fieldText('evaluator', input).label, input).toBe(EVALUATION_INPUTS[input].label)
      for (const key of Object.keys(sharedFields)) if (!['model', 'provider', 'judges', 'panel', 'pass_threshold', 'include_feedback'].includes(key)) expect(TYPE_OWNED_FIELDS.has(key), key).toBe(false)
    }
  })

  it('derives the editor tables and the type lists from the specs', () => {
    expect(contentTypes.filter(type => BUILT_IN.includes(type))).toEqual(['scoring', 'criteria', 'rubric', 'metrics', 'assertions'])
    expect(deterministicTypes.filter(type => BUILT_IN.includes(type))).toEqual(['scorers', 'trace'])
    expect(formSpecFor(undefined).type).toBe('scoring')
    expect(formSpecFor('trace').inputs).toEqual(['trace'])
    expect(panel).toContain('formSpecFor(props.node.config.evaluation_type).inputs')
    // Every section a type asks for is one the form places.
    const sections = new Set<FormSection>(evaluationTypeSpecs.flatMap(spec => spec.sections))
    for (const section of sections) expect(form, section).toContain(`shows('${section}')`)
  })

  it('validates each type with its own variant of the config union', async () => {
    const minimal: Record<string, Record<string, unknown>> = {
      criteria: { criteria: [{ name: 'accuracy' }] },
      comparison: { compare_inputs: ['one answer', 'another answer'] },
      scorers: { preset: 'standard' },
    }
    for (const type of evaluationTypes) {
      const parsed = evaluatorConfigSchema.parse({ evaluation_type: type, model: 'local:heuristic', ...minimal[type] })
      expect(parsed.evaluation_type).toBe(type)
    }
    // A field of another type is validated, then set aside (not passed on to this type).
    expect(evaluatorConfigSchema.parse({ evaluation_type: 'trace', criteria: [{ name: 'accuracy' }] })).not.toHaveProperty('criteria')
    expect(evaluatorConfigSchema.safeParse({ evaluation_type: 'trace', criteria: 'accuracy' }).success).toBe(false)
    await expect(evaluate({ evaluation_type: 'grading' }, { content: 'x' }, { providers }))
      .rejects.toThrow(`Invalid evaluator config: evaluation_type: must be one of ${evaluationTypes.join(', ')}.`)
    await expect(evaluate({ evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'a' }], metrics: [{ name: 'Relevance' }] }, { content: 'x' }, { providers }))
      .rejects.toThrow('Invalid evaluator config: metrics: is only used by evaluation_type "metrics".')
    await expect(evaluate({ evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'a' }], scorers: [{ type: 'regex' }], preset: 'standard' }, { content: 'x' }, { providers }))
      .rejects.toThrow('Invalid evaluator config: scorers: is only used by evaluation_type "scorers".')
  })
})
