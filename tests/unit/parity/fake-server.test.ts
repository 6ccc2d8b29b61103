import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findDirectives } from '../../parity/promptfoo/directives'
import { EMBEDDING_DIMENSIONS, embed, startParityServer } from '../../parity/promptfoo/fake-server'
import type { FakeLLM } from '../../support/fake-llm'

let fake: FakeLLM
let client: OpenAI

beforeAll(async () => {
  fake = await startParityServer()
  client = new OpenAI({ apiKey: 'sk-parity', baseURL: fake.openaiBaseURL, maxRetries: 0 })
})
afterAll(() => fake.stop())

async function ask(...messages: Array<{ role: 'system' | 'user', content: string }>) {
  return client.chat.completions.create({ model: 'gpt-4o-mini', messages })
}

async function answer(content: string): Promise<string> {
  return (await ask({ role: 'user', content })).choices[0]!.message.content ?? ''
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i]!, 0)
}

describe('parity fake: generation', () => {
  it('answers with the echo block and reports fixed usage', async () => {
    const reply = await ask({ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Reply exactly: ECHO>>Lyon, on the Rhone<<ECHO' })
    expect(reply.choices[0]!.message.content).toBe('Lyon, on the Rhone')
    expect(reply.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10 })
  })

  it('ignores directives inside the echo block, so an output can carry one for a later grader', async () => {
    expect(await answer('Reply exactly: ECHO>>Paris. [question text="What is the capital?"]<<ECHO')).toBe('Paris. [question text="What is the capital?"]')
  })

  it('takes usage from a directive and refuses with the status a directive names', async () => {
    const reply = await ask({ role: 'user', content: '[usage in=2000 out=1000] ECHO>>ok<<ECHO' })
    expect(reply.usage).toMatchObject({ prompt_tokens: 2000, completion_tokens: 1000 })
    await expect(answer('[status code=400] ECHO>>ok<<ECHO')).rejects.toMatchObject({ status: 400 })
  })

  it('refuses a request with neither a directive nor an echo block, and one with two different directives', async () => {
    await expect(answer('What is the capital of France?')).rejects.toMatchObject({ status: 400 })
    await expect(answer('[grade pass=true] and [closedqa verdict=Y]')).rejects.toMatchObject({ status: 400 })
  })
})

describe('parity fake: graders', () => {
  it('answers llm-rubric with the JSON the directive sets, leaving out what it does not set', async () => {
    expect(JSON.parse(await answer('<Rubric>Names a river [grade pass=false score=0.2 reason="no river"]</Rubric>'))).toEqual({ reason: 'no river', pass: false, score: 0.2 })
    expect(JSON.parse(await answer('rubric [grade score=0.3]'))).toEqual({ reason: 'graded by directive', score: 0.3 })
    expect(JSON.parse(await answer('rubric [grade pass=yes]'))).toEqual({ reason: 'graded by directive', pass: 'yes' })
  })

  it('answers factuality, closedqa, select-best and raw replies', async () => {
    expect(JSON.parse(await answer('expert: Lyon [factuality category=D reason="differs"]'))).toEqual({ category: 'D', reason: 'differs' })
    expect((await answer('criterion [closedqa verdict=N]')).trimEnd().endsWith('\nN')).toBe(true)
    expect(await answer('criteria [select index=2]')).toBe('2')
    expect(await answer('rubric [reply text="(B) line one\\nline two"]')).toBe('(B) line one\nline two')
  })

  it('answers both g-eval calls with one line holding steps, score and reason', async () => {
    const text = await answer('criteria [geval score=7]')
    expect(text).not.toContain('\n')
    expect(JSON.parse(text)).toEqual({ steps: ['Check the reply against the criteria.'], score: 7, reason: 'scored by directive' })
  })

  it('answers context-recall with one classified line per sentence', async () => {
    const lines = (await answer('answer: x [recall attributed=2 not=1]')).split('\n')
    expect(lines).toHaveLength(3)
    expect(lines.map(line => line.endsWith('[Not Attributed]'))).toEqual([false, false, true])
  })

  it('answers context-relevance with the quoted sentences, or Insufficient Information', async () => {
    expect(await answer('query [relevant quote="Lyon lies on the Rhone." quote="It is in France."]')).toBe('Lyon lies on the Rhone.\nIt is in France.')
    expect(await answer('query [relevant]')).toBe('Insufficient Information')
  })

  it('answers context-faithfulness with statements that carry the directive into the second call', async () => {
    const statements = await answer('question: q [faithful yes=1 no=1]')
    expect(statements.split('\n')).toEqual(['1. Statement 1 [faithful yes=1 no=1]. Verdict: Yes.', '2. Statement 2. Verdict: No.'])
    expect(await answer(`context: c\nstatements:\n${statements}`)).toBe(statements)
  })

  it('answers a question directive with its text', async () => {
    expect(await answer('Answer: Paris. [question text="What is the capital of France?"]\nQuestion:')).toBe('What is the capital of France?')
  })
})

describe('parity fake: embeddings', () => {
  const texts = ['Paris is the capital of France', 'the capital of France is Paris', 'Berlin trains']

  it('embeds each input as a unit hashed bag of words, as plain numbers when asked for floats', async () => {
    const reply = await client.embeddings.create({ model: 'text-embedding-3-large', input: texts, encoding_format: 'float' })
    const [a, b, c] = reply.data.map(item => item.embedding)
    expect(a).toEqual(embed(texts[0]!))
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS)
    expect(cosine(a!, a!)).toBeCloseTo(1, 12)
    expect(cosine(a!, b!)).toBeCloseTo(1, 12)
    expect(cosine(a!, c!)).toBeLessThan(0.5)
  })

  it('sends float32 base64 to the SDK by default, equal to the numbers within float32 precision', async () => {
    const reply = await client.embeddings.create({ model: 'text-embedding-3-large', input: texts[0]! })
    const vector = reply.data[0]!.embedding
    expect(vector).toHaveLength(EMBEDDING_DIMENSIONS)
    embed(texts[0]!).forEach((value, i) => expect(vector[i]).toBeCloseTo(value, 6))
  })
})

describe('parity directives', () => {
  it('reads quoted and bare arguments in order and writes them back canonically', () => {
    const [directive] = findDirectives('x [relevant quote="a \\"b\\"" quote=c] y')
    expect(directive!.args).toEqual([['quote', 'a "b"'], ['quote', 'c']])
    expect(directive!.canonical).toBe('[relevant quote="a \\"b\\"" quote=c]')
  })

  it('does not take bracketed text of other words for a directive', () => {
    expect(findDirectives('[1, 2] [note pass=true] [grades x=1]')).toEqual([])
  })
})
