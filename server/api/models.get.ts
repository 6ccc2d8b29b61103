import { PROVIDER_MODELS } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'

/** The judges and models the editor can offer: the offline judge always, a provider's models only when its key is set. Never the key. */
export default defineEventHandler(() => {
  const { config, providers } = useJudgeflow()
  const keys = { openai: !!config.providers.keys.OPENAI_API_KEY, anthropic: !!config.providers.keys.ANTHROPIC_API_KEY }
  return {
    default_judge: providers.defaultJudgeModel(),
    models: ['local:heuristic', ...(keys.openai ? PROVIDER_MODELS.openai! : []), ...(keys.anthropic ? PROVIDER_MODELS.anthropic! : [])],
    providers: keys,
  }
})
