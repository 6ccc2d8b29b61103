import { describe, expect, it } from 'vitest'
import { importPromptfoo } from '../../../engine/datasets'
import { defaultRegistry, validateWorkflow } from '../../../engine'

const config = (provider: string) => `
prompts: ['Answer: {{question}}']
providers:
${provider}
tests:
  - vars: { question: Why? }
    assert: [{ type: contains, value: x }]
`

const httpNode = (text: string) => {
  const imported = importPromptfoo(text)
  expect(validateWorkflow(imported.workflow, defaultRegistry).ok).toBe(true)
  return { imported, node: (imported.workflow!.nodes as Array<Record<string, any>>).find(n => n.type === 'http')! }
}

describe('promptfoo http providers', () => {
  it('become an http step: the prompt where {{prompt}} was, vars as input references, env in headers listed in settings.env', () => {
    const { imported, node } = httpNode(config(`  - id: https://api.example.com/chat
    config:
      method: POST
      headers: { Authorization: 'Bearer {{env.API_TOKEN}}', X-Question: '{{question}}' }
      body: { message: '{{prompt}}', meta: { n: 3 } }
      transformResponse: json.choices[0].message.content`))
    expect(node.config).toEqual({
      url: 'https://api.example.com/chat', method: 'POST', retries: 4, expect_status: 'any',
      headers: { 'authorization': 'Bearer {{env.API_TOKEN}}', 'x-question': '{{input.question}}' },
      body: { message: 'Answer: {{input.question}}', meta: { n: 3 } },
      answer: 'choices[0].message.content',
    })
    expect(imported.workflow!.settings).toEqual({ env: ['API_TOKEN'] })
  })

  it('reads a transformResponse that is not a path as JavaScript, and the default as the parsed JSON', () => {
    const expression = importPromptfoo(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { m: '{{prompt}}' }, transformResponse: 'json.a + text' }`))
    const judge = (expression.workflow!.nodes as Array<Record<string, any>>).find(n => n.id === 'judge')!
    expect(judge.config.response_transform).toContain('const result = ((json, text) => (json.a + text))(json || null, text)')
    const plain = importPromptfoo(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { m: '{{prompt}}' } }`))
    expect((plain.workflow!.nodes as Array<Record<string, any>>).find(n => n.id === 'judge')!.config.provider_output).toBe('json_or_text')
  })

  it('sends a GET without its body when no method is given, as promptfoo does, and says so', () => {
    const { imported, node } = httpNode(config(`  - id: https://api.example.com/chat
    config: { body: { m: '{{prompt}}' } }`))
    expect(node.config.method).toBe('GET')
    expect(node.config.body).toBeUndefined()
    expect(imported.notes).toContain('providers[0]: promptfoo sends a GET without its body when config.method is not given, and so does this import; write method: POST to send the body')
  })

  it('refuses what it would not send as promptfoo does, naming the field', () => {
    expect(() => importPromptfoo(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { m: '{{prompt}}' }, auth: { type: bearer, token: x }, session: {} }`)))
      .toThrow('the promptfoo config, providers[0].config: auth, session are not imported for an http provider')
    expect(() => importPromptfoo(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { key: '{{env.SECRET}}' } }`)))
      .toThrow('providers[0].config.body.key: "{{env.SECRET}}" reads an environment variable, which judgeflow\'s http step reads only in headers')
    expect(() => importPromptfoo(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { m: '{{prompt}}' }, validateStatus: 'status < 500' }`)))
      .toThrow('providers[0].config.validateStatus: only a list of statuses, such as (status) => [200, 201].includes(status), is imported')
    expect(() => importPromptfoo(config(`  - id: http
    config: { method: POST, body: { m: '{{prompt}}' } }`)))
      .toThrow('providers[0]: an "http" provider needs config.url')
    expect(() => importPromptfoo(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { m: '{{prompt | upper}}' } }`)))
      .toThrow('"{{prompt | upper}}" is not imported (filters and expressions are Nunjucks)')
  })

  it('reads validateStatus as a list of statuses', () => {
    const { node } = httpNode(config(`  - id: https://api.example.com/chat
    config: { method: POST, body: { m: '{{prompt}}' }, validateStatus: '(status) => [200, 201].includes(status)' }`))
    expect(node.config.expect_status).toEqual([200, 201])
  })
})
