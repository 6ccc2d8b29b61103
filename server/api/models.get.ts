/** The judges and models the editor can offer: the offline judge always, a provider's models only when its key is set. Never the key. */
export default defineEventHandler(() => {
  const env = process.env
  return {
    default_judge: env.JUDGEFLOW_DEFAULT_JUDGE || (env.OPENAI_API_KEY ? 'openai:gpt-4o-mini' : env.ANTHROPIC_API_KEY ? 'anthropic:claude-sonnet-4-5-20250929' : 'local:heuristic'),
    models: [
      'local:heuristic',
      ...(env.OPENAI_API_KEY ? ['openai:gpt-4o-mini', 'openai:gpt-4o', 'openai:gpt-4.1-mini'] : []),
      ...(env.ANTHROPIC_API_KEY ? ['anthropic:claude-sonnet-4-5-20250929', 'anthropic:claude-3-5-haiku-latest'] : []),
    ],
    providers: { openai: !!env.OPENAI_API_KEY, anthropic: !!env.ANTHROPIC_API_KEY },
  }
})
