import type { JudgeflowConfig } from '../core/config'

/**
 * `--require-judge` (run, eval, test), as JUDGEFLOW_REQUIRE_JUDGE=1: an evaluator that names no
 * judge model is refused before any call (exit 2) rather than graded by local:heuristic because
 * no key is set. Named as `--require-calibration` is: what the gate requires of its judge.
 */
export const REQUIRE_JUDGE_OPTION = { 'require-judge': { type: 'boolean' } } as const

/** The configuration with a real judge required when the flag is given; as it was otherwise. */
export function withRequiredJudge(config: JudgeflowConfig, flag: boolean | undefined): JudgeflowConfig {
  return flag ? { ...config, providers: { ...config.providers, requireJudge: true } } : config
}
