import { describe, expect, it } from 'vitest'
import { evaluate, type EvaluatorConfigInput } from '../../../engine'
import { useFakeJudge } from '../../support/fake-judge'
import type { RecordedRequest } from '../../support/fake-llm'

// Judges on servers that do not hold the model to a JSON Schema, through the real SDKs: an
// OpenAI-compatible local server without JSON Schema (then without JSON mode), a model that wraps
// its JSON in prose, and an Anthropic-compatible server that ignores or refuses tools.
const { fake, providers } = useFakeJudge()
const criteria = (config: Partial<EvaluatorConfigInput> = {}): EvaluatorConfigInput => ({
  evaluation_type: 'criteria', model: 'openai:local-model',
  criteria: [{ name: 'relevance', description: 'Answers the question', weight: 0.5 }, { name: 'accuracy', description: 'Facts are right', weight: 0.5 }],
  pass_threshold: 0.7, ...config,
})
const input = { content: 'Paris is the capital of France.', context: 'What is the capital of France?' }
const verdictText = '{"criteria_scores": {"relevance": 0.9, "accuracy": 0.8}, "criteria_reasons": {"relevance": "on topic", "accuracy": "right"}, "feedback": "Good.", "suggestions": []}'
const openaiRefusal = (what: string) => ({ status: 400, body: JSON.stringify({ error: { message: `Invalid value for 'response_format.type': ${what} is not supported by this server`, type: 'invalid_request_error', code: null } }) })
const systemOf = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'system')?.content as string ?? request.body.system as string ?? ''

describe('judges on servers without JSON Schema', () => {
  it('asks in JSON mode once the server refuses JSON Schema, reads JSON wrapped in prose, and keeps asking that model in JSON mode', async () => {
    fake.onRequest(request => (request.body.response_format?.type === 'json_schema'
      ? openaiRefusal('json_schema')
      : { text: `Sure! Here is my evaluation:\n${verdictText}\nI hope this helps.` }))
    const judges = providers()
    const first = await evaluate(criteria(), input, { providers: judges })
    expect(first).toMatchObject({ passed: true, overall_score: 0.85, judge: { calls: 1, reasks: 0, repaired: 1, structured_output: 'json_object' } })
    expect(fake.requests.map(r => r.body.response_format?.type)).toEqual(['json_schema', 'json_object'])
    // Not held by the server, the model is told the schema.
    expect(systemOf(fake.requests[1]!)).toContain('"criteria_scores"')
    expect(systemOf(fake.requests[1]!)).toMatch(/Answer with one JSON object and nothing else, matching this JSON Schema/)

    const second = await evaluate(criteria(), { ...input, content: 'The capital of France is Paris.' }, { providers: judges })
    expect(second.judge).toMatchObject({ structured_output: 'json_object', repaired: 1 })
    expect(fake.requests.map(r => r.body.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object'])
  })

  it('asks in plain text when JSON mode is refused too, and reads a fenced block with single quotes and trailing commas', async () => {
    fake.onRequest(request => (request.body.response_format
      ? openaiRefusal(request.body.response_format.type)
      : { text: '```json\n{\'criteria_scores\': {\'relevance\': 1, \'accuracy\': 0.6,}, \'criteria_reasons\': {\'relevance\': \'it\\\'s on topic\', \'accuracy\': \'close\'}, \'feedback\': \'Fine.\', \'suggestions\': [],}\n```' }))
    const result = await evaluate(criteria(), input, { providers: providers() })
    expect(result).toMatchObject({ overall_score: 0.8, criteria_reasons: { relevance: 'it\'s on topic' }, judge: { repaired: 1, structured_output: 'text' } })
    expect(fake.requests.map(r => r.body.response_format?.type ?? 'none')).toEqual(['json_schema', 'json_object', 'none'])
  })

  it('a JSON Schema answer that is plain JSON needs no repair', async () => {
    fake.script({ text: verdictText })
    const result = await evaluate(criteria(), input, { providers: providers() })
    expect(result.judge).toMatchObject({ repaired: 0, structured_output: 'json_schema', reasks: 0 })
  })

  it('re-asks an answer cut short, never completing it, then fails naming the model and quoting what it returned', async () => {
    const cut = '{"criteria_scores": {"relevance": 0.9, "accuracy": 0.'
    fake.onRequest(() => ({ text: `Here it is: ${cut}` }))
    const failed = evaluate(criteria({ max_retries: 1 }), input, { providers: providers() })
    await expect(failed).rejects.toMatchObject({
      code: 'PROVIDER_RESPONSE_INVALID',
      message: expect.stringContaining('The judge openai:local-model gave no valid answer for criteria relevance, accuracy in 2 tries: the answer\'s JSON object is not complete'),
      details: { model: 'openai:local-model', answer: `Here it is: ${cut}` },
    })
    await expect(failed).rejects.toThrow(`Its last answer: ${JSON.stringify(`Here it is: ${cut}`)}`)
    expect(fake.requests).toHaveLength(2)
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('answer with the JSON object only')
  })

  it('a 400 that is not about the response format is not taken for a missing feature', async () => {
    fake.onRequest(() => ({ status: 400, body: JSON.stringify({ error: { message: 'This model\'s maximum context length is 8192 tokens', type: 'invalid_request_error', code: 'context_length_exceeded' } }) }))
    await expect(evaluate(criteria(), input, { providers: providers() })).rejects.toThrow(/maximum context length/)
    expect(fake.requests).toHaveLength(1)
  })
})

describe('judges on Anthropic-compatible servers without tool use', () => {
  const anthropic = (config: Partial<EvaluatorConfigInput> = {}) => criteria({ model: 'anthropic:local-claude', ...config })

  it('reads the JSON from the text when the server answers without calling the tool', async () => {
    fake.onRequest(() => ({ text: `My verdict follows.\n\n${verdictText.replace('"suggestions": []', '"suggestions": [],')}` }))
    const result = await evaluate(anthropic(), input, { providers: providers() })
    expect(result).toMatchObject({ overall_score: 0.85, judge: { repaired: 1, structured_output: 'text' } })
    expect(fake.requests[0]!.body.tool_choice).toMatchObject({ type: 'tool' })
  })

  it('asks in plain text with the schema in the prompt once the server refuses tools', async () => {
    fake.onRequest(request => (request.body.tools
      ? { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'tools: tool use is not supported by this server' } }) }
      : { text: verdictText }))
    const result = await evaluate(anthropic(), input, { providers: providers() })
    expect(result).toMatchObject({ overall_score: 0.85, judge: { repaired: 0, structured_output: 'text' } })
    expect(fake.requests.map(r => !!r.body.tools)).toEqual([true, false])
    expect(fake.requests[1]!.body.system).toMatch(/matching this JSON Schema:\n\{/)
  })
})
