/** The shape of recorded/<name>.json: promptfoo's verdicts on one parity config (see README.md). */

export interface RecordedAssertion {
  type: string | null
  pass: boolean
  score: number
  reason: string | null
  metric: string | null
  weight: number | null
  threshold?: number
  /** An assert-set's members. */
  components?: RecordedAssertion[]
}

export interface RecordedResult {
  testIdx: number
  description: string | null
  /** promptfoo's column: providers × prompts, provider-major. */
  promptIdx: number
  prompt: string | null
  provider: string | null
  vars: Record<string, unknown>
  metadata: Record<string, unknown>
  threshold: number | null
  success: boolean
  score: number
  cost: number | null
  output: unknown
  error: string | null
  /** 0 passed, 1 an assertion failed, 2 the call failed. */
  failureReason: number
  reason: string | null
  namedScores: Record<string, number>
  assertions: RecordedAssertion[]
}

export interface ParityRecording {
  promptfoo: string
  config: string
  results: RecordedResult[]
}
