import { describe, expect, it } from 'vitest'
import { renderFromSample } from '../../../server/utils/http-test'

describe('a test request\'s config rendered from a sample input', () => {
  it('puts in what the sample answers, keeping a lone reference\'s type, and leaves the rest as written', () => {
    const written = {
      url: '{{input.base}}/chat',
      body: { question: '{{input.question}}', history: '{{input.history}}', draft: '{{steps.gen.text}}', n: '{{attempt}}' },
      headers: { 'Authorization': 'Bearer {{env.API_TOKEN}}', 'X-Trace': '{{input.missing}}-1' },
    }
    expect(renderFromSample(written, { base: 'http://127.0.0.1:9', question: 'Why?', history: ['a', 'b'] })).toEqual({
      url: 'http://127.0.0.1:9/chat',
      body: { question: 'Why?', history: ['a', 'b'], draft: '{{steps.gen.text}}', n: 1 },
      headers: { 'Authorization': 'Bearer {{env.API_TOKEN}}', 'X-Trace': '{{input.missing}}-1' },
    })
  })

  it('leaves text that is not a reference alone', () => {
    expect(renderFromSample({ body: 'a {{ not a ref }} b', retries: 2 }, {})).toEqual({ body: 'a {{ not a ref }} b', retries: 2 })
  })
})
