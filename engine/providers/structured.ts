/**
 * Structured output across providers: a judge's answer is asked for with the provider's own
 * schema-bound output where the server has it, and otherwise in JSON mode or in plain text with
 * the schema in the prompt (the judge then reads, and if need be repairs, the JSON from the text).
 */

/** A 400/422 that names the response format: the server has no such structured output (not a transient failure). */
export function refusesStructuredOutput(error: unknown): boolean {
  const { status, message } = error as { status?: number, message?: string }
  return (status === 400 || status === 422) && /response_format|json_schema|json_object|structured output|tool/i.test(message ?? '')
}

/** The system prompt with the answer's schema spelled out, for a model not held to it by the server. */
export function withSchemaInPrompt(system: string | undefined, schema: { name: string, schema: Record<string, unknown> }): string {
  const ask = `Answer with one JSON object and nothing else, matching this JSON Schema:\n${JSON.stringify(schema.schema)}`
  return system ? `${system}\n\n${ask}` : ask
}
