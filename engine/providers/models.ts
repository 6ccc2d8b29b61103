/** Browser-safe: the editor, the metric suite's config check and the server read the same list. */

/** A provider's models offered when its key is set; the first is its default model. */
export const PROVIDER_MODELS: Readonly<Record<string, readonly string[]>> = {
  openai: ['openai:gpt-4o-mini', 'openai:gpt-4o', 'openai:gpt-4.1-mini'],
  anthropic: ['anthropic:claude-sonnet-4-5-20250929', 'anthropic:claude-3-5-haiku-latest'],
}

/** The model a provider named without one stands for (`provider = "openai"`), if it has a default. */
export function providerDefaultModel(provider: string): string | undefined {
  return Object.hasOwn(PROVIDER_MODELS, provider) ? PROVIDER_MODELS[provider]![0] : undefined
}

/** Why a provider named without a model cannot stand for one. */
export function noDefaultModel(provider: string): string {
  return `"${provider}" has no default model: name one with model (providers with a default model: ${Object.keys(PROVIDER_MODELS).join(', ')})`
}

/** The environment variable holding a provider's key; `local` needs none. The adapters and the editor's help read it. */
export const PROVIDER_KEY_VARIABLES: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
}

/** The providers judgeflow calls: `local` is the offline judge, whose one model is `local:heuristic`. */
export const KNOWN_PROVIDERS: readonly string[] = ['openai', 'anthropic', 'local']

/** The offline judge. */
export const OFFLINE_JUDGE = 'local:heuristic'
