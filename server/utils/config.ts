import { loadConfig, type JudgeflowConfig } from '~~/core/config'

let config: JudgeflowConfig | undefined

/**
 * The server's configuration, read from the environment once: the first plugin reads it at start,
 * so a wrong value stops the start with a sentence naming the variable.
 */
export function judgeflowConfig(): JudgeflowConfig {
  return config ??= loadConfig()
}
