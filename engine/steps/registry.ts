import type { StepDefinition } from './types'
import { inputStep } from './input'
import { llmStep } from './llm'
import { httpStep } from './http'
import { codeStep } from './code'
import { evaluatorStep } from './evaluator'
import { conditionStep } from './condition'
import { retryStep } from './retry'
import { outputStep } from './output'
import { JudgeflowError } from '../errors'

/** Every built-in step type. Adding a type: its folder, plus one line here. */
export const builtinSteps: readonly StepDefinition<any>[] = [
  inputStep,
  llmStep,
  httpStep,
  codeStep,
  evaluatorStep,
  conditionStep,
  retryStep,
  outputStep,
]

export class StepRegistry {
  private readonly byType = new Map<string, StepDefinition>()

  constructor(definitions: readonly StepDefinition<any>[] = builtinSteps) {
    for (const definition of definitions) this.register(definition)
  }

  register(definition: StepDefinition<any>): void {
    if (this.byType.has(definition.type)) throw new JudgeflowError('INVALID_CONFIG', `step type "${definition.type}" is registered twice`)
    this.byType.set(definition.type, definition)
  }

  get(type: string): StepDefinition | undefined {
    return this.byType.get(type)
  }

  types(): string[] {
    return [...this.byType.keys()]
  }

  all(): StepDefinition[] {
    return [...this.byType.values()]
  }
}

export const defaultRegistry = new StepRegistry()
