import type { JudgeflowConfig } from '../core/config'

/** `--require-judge` (cli/help/flag-spec.ts): the configuration with a real judge required when the flag is given; as it was otherwise. */
export function withRequiredJudge(config: JudgeflowConfig, flag: boolean | undefined): JudgeflowConfig {
  return flag ? { ...config, providers: { ...config.providers, requireJudge: true } } : config
}
