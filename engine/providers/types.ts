export interface ChatMessage {
  role: 'user' | 'assistant'
  content: string
}

export interface ChatRequest {
  system?: string
  messages: ChatMessage[]
  temperature?: number
  max_tokens?: number
  /** Ask for JSON matching this schema (OpenAI json_schema response format, Anthropic forced tool call). */
  json_schema?: { name: string, schema: Record<string, unknown> }
  /** An LLM step's own response format, sent as OpenAI's `response_format` (json_object, or json_schema as written); providers without one refuse it. */
  response_format?: Record<string, unknown>
  /** `true` forces the response cache, `false` bypasses it; by default only temperature 0 is cached. */
  cache?: boolean
  /** Part of the cache key but not sent: tells apart deliberate repeats of one request (samples). */
  cache_salt?: string
  /** Only answers this accepts are cached (an invalid judge answer must not be served again). */
  cacheable?: (response: ChatResponse) => boolean
}

/**
 * How an answer asked for with `json_schema` was held to it: the provider's schema-bound output
 * (OpenAI JSON Schema, an Anthropic tool call), else JSON mode, else a plain-text answer with the
 * schema in the prompt, for servers that refuse the better ones.
 */
export type StructuredOutput = 'json_schema' | 'tool' | 'json_object' | 'text'

export interface ChatResponse {
  text: string
  /** The parsed structured output when `json_schema` was asked for and the answer is JSON as it is (else read from `text`). */
  json?: unknown
  /** With `json_schema`: how the answer was held to it. */
  structured?: StructuredOutput
  model: string
  usage: { input_tokens: number, output_tokens: number }
  latency_ms: number
  cached: boolean
}

export interface CallOptions {
  signal?: AbortSignal
  /** Overrides the retry policy's count of retries for this call. */
  maxRetries?: number
}

/** One backend: sends a request to a model and returns the raw reply. Retries and caching wrap it. */
export interface ProviderAdapter {
  id: string
  /** The environment variable holding the key, when one is needed. */
  keyVariable?: string
  send(model: string, request: ChatRequest, options: CallOptions): Promise<Omit<ChatResponse, 'latency_ms' | 'cached'>>
  /** One vector per text, from the provider's embeddings API (absent: the provider has none). */
  embed?(model: string, texts: string[], options: CallOptions): Promise<number[][]>
}

export interface ResponseCache {
  get(key: string): ChatResponse | undefined | Promise<ChatResponse | undefined>
  set(key: string, value: ChatResponse, meta: { provider: string, model: string }): void | Promise<void>
}

/** See `Providers.defaultJudgeFallback`. */
export interface DefaultJudgeFallback {
  /** The key variables any of which would make the default judge a real one, in order of preference. */
  keys: readonly string[]
  /** The default judge each key gives, by variable. */
  judges: Readonly<Record<string, string>>
  /** The caller requires a real judge: an evaluator that would fall back is refused before any call. */
  refused: boolean
}

/** What steps see: `provider:model` strings resolved, keys checked, retries and cache applied. */
export interface Providers {
  /**
   * Throws MISSING_API_KEY / UNKNOWN_PROVIDER before any call; `usedBy` names the user, e.g.
   * `node "draft"`, and `remedy` says what to do about a missing key (default: set it).
   */
  check(modelRef: string, usedBy?: string, remedy?: string): void
  complete(modelRef: string, request: ChatRequest, options?: CallOptions): Promise<ChatResponse>
  /** One vector per text from `provider:model`'s embeddings API (promptfoo's `similar`); refused for a provider without one. */
  embed(modelRef: string, texts: string[], options?: CallOptions): Promise<number[][]>
  /** The judge used when an evaluator names no model: the configured one (JUDGEFLOW_DEFAULT_JUDGE), else by the keys present, else local:heuristic. */
  defaultJudgeModel(): string
  /**
   * Why the default judge is the offline one, when it is only because no key is set (none
   * configured): the variables any of which would give a real judge, and whether the caller
   * requires one (JUDGEFLOW_REQUIRE_JUDGE, --require-judge). Undefined when the default judge is
   * a real one or was chosen. Absent: never said.
   */
  defaultJudgeFallback?(): DefaultJudgeFallback | undefined
  /** The provider ids it calls (built-in and the caller's): a workflow's models are checked against them. Absent: the built-in ones. */
  providerIds?(): readonly string[]
}
