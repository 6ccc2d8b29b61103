import { JudgeflowError } from '../errors'
import { evaluationTypeSpec } from '../evaluation-types/specs'

/**
 * A workflow whose LLM-judged evaluator steps are all judged by `grader` (a `provider:model`), for
 * one run: each such step's `model` is the grader and its `provider` is dropped, so the grader's
 * own provider prefix decides. Steps that need no judge are left as they are. A metric suite is
 * refused: each of its metrics may name its own model, so one model for the step would not hold.
 */
export function withGrader(definition: Record<string, unknown>, grader: string): Record<string, unknown> {
  const nodes = Array.isArray(definition.nodes) ? definition.nodes as Array<Record<string, unknown>> : []
  return {
    ...definition,
    nodes: nodes.map((node) => {
      if (node.type !== 'evaluator') return node
      const { provider: _provider, ...config } = (node.config ?? {}) as Record<string, unknown>
      const type = config.evaluation_type
      const spec = evaluationTypeSpec(type)
      if (spec && !spec.usesJudge) return node
      if (!spec || type === 'metrics') {
        const why = spec ? 'its metrics each name their model' : `its evaluation type "${String(type)}" is not one whose judge judgeflow knows`
        throw new JudgeflowError('INVALID_INPUT', `The run's grader cannot judge the evaluator step "${String(node.id)}": ${why}; set the model in the step's config instead.`)
      }
      return { ...node, config: { ...config, model: grader } }
    }),
  }
}
