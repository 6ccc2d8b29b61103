/**
 * What each built-in step type outputs, by type, free of zod: the editor's page reads these (the
 * `{{` completion), as the step specs do (`StepSpec.outputs`).
 */
import type { OutputField } from './outputs'
import { inputOutputs } from './input/outputs'
import { llmOutputs } from './llm/outputs'
import { httpOutputs } from './http/outputs'
import { codeOutputs } from './code/outputs'
import { evaluatorOutputs } from './evaluator/outputs'
import { conditionOutputs } from './condition/outputs'
import { retryOutputs } from './retry/outputs'
import { outputOutputs } from './output/outputs'

export const builtinStepOutputs: Readonly<Record<string, (config: Record<string, unknown>) => OutputField>> = {
  input: inputOutputs,
  llm: llmOutputs,
  http: httpOutputs,
  code: codeOutputs,
  evaluator: evaluatorOutputs,
  condition: conditionOutputs,
  retry: retryOutputs,
  output: outputOutputs,
}
