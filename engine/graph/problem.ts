/** A problem found in a workflow: what validation reports, the editor lists and the API answers. */
export type ProblemCode
  = | 'invalid_shape'
    | 'duplicate_node'
    | 'unknown_type'
    | 'invalid_config'
    | 'missing_node'
    | 'invalid_branch'
    | 'duplicate_edge'
    | 'cycle'
    | 'invalid_retry_target'
    | 'invalid_reference'
    | 'mixed_comparison'

export interface Problem {
  code: ProblemCode
  message: string
  /** The node the problem is on, when there is one. */
  node?: string
  /** Where inside the workflow, e.g. `nodes.judge.config.criteria[0].weight`. */
  path?: string
  /** Absent for an error, which makes the workflow invalid; a `warning` is reported but runs are not refused. */
  severity?: 'warning'
}
