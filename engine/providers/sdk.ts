/**
 * How both SDK clients are built: the key and endpoint from `<PREFIX>_API_KEY` and
 * `<PREFIX>_BASE_URL`, no retries of their own (`withRetries` wraps every call), and a long
 * timeout for slow models. The SDK is imported on the first call, so commands that call no model
 * start fast.
 */
export function lazySdkClient<T>(
  load: () => Promise<new (options: SdkClientOptions) => T>,
  env: Record<string, string | undefined>,
  prefix: 'OPENAI' | 'ANTHROPIC',
): () => Promise<T> {
  let client: Promise<T> | undefined
  return () => (client ??= load().then(Client => new Client({
    apiKey: env[`${prefix}_API_KEY`],
    baseURL: env[`${prefix}_BASE_URL`] || undefined,
    maxRetries: 0,
    timeout: 10 * 60_000,
  })))
}

export interface SdkClientOptions {
  apiKey: string | undefined
  baseURL: string | undefined
  maxRetries: number
  timeout: number
}
