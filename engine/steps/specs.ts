/**
 * The built-in step types' specs, browser-safe: the editor validates workflows with these, the
 * same schemas the server's registry holds.
 */
import type { StepSpec, StepSpecs } from './types'
import { inputSpec } from './input/spec'
import { llmSpec } from './llm/spec'
import { httpSpec } from './http/spec'
import { codeSpec } from './code/spec'
import { evaluatorSpec } from './evaluator/spec'
import { conditionSpec } from './condition/spec'
import { retrySpec } from './retry/spec'
import { outputSpec } from './output/spec'

export const builtinStepSpecs: readonly StepSpec<any>[] = [inputSpec, llmSpec, httpSpec, codeSpec, evaluatorSpec, conditionSpec, retrySpec, outputSpec]

export function stepSpecs(specs: readonly StepSpec<any>[] = builtinStepSpecs): StepSpecs {
  const byType = new Map(specs.map(spec => [spec.type, spec as StepSpec]))
  return { get: type => byType.get(type), types: () => [...byType.keys()] }
}
