/**
 * A fake LLM HTTP server on loopback speaking the OpenAI Chat Completions, OpenAI Embeddings
 * and Anthropic Messages wire formats, so tests drive the real SDKs. Replies are scripted per test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeApi = 'openai' | 'anthropic' | 'openai-embeddings'

export interface RecordedRequest {
  api: FakeApi
  path: string
  headers: IncomingMessage['headers']
  body: any
  /** Set when the client hung up before the answer was complete (an aborted call). */
  aborted: boolean
}

export interface FakeReply {
  /** HTTP status; 200 by default. */
  status?: number
  text?: string
  /** Structured output: OpenAI content is its JSON text; Anthropic answers with a tool_use block. */
  json?: unknown
  headers?: Record<string, string>
  /** A raw body sent instead of a well-formed one (malformed or truncated JSON). */
  body?: string
  /** Wait before answering. */
  delayMs?: number
  /** Send the body a few bytes at a time with this pause between chunks. */
  dripMs?: number
  /** Close the connection without any answer. */
  reset?: boolean
  /** Send the headers and half the body, then close the connection. */
  resetMidBody?: boolean
  usage?: { input_tokens: number, output_tokens: number }
  /** OpenAI refusal text. */
  refusal?: string
  /** One vector per input of an embeddings request; a zero vector each when absent. */
  embeddings?: number[][]
}

export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>

export class FakeLLM {
  readonly requests: RecordedRequest[] = []
  /** Requests being answered right now, and the most there were at once since the last reset. */
  inFlight = 0
  maxInFlight = 0
  private readonly queue: FakeReply[] = []
  private handler: FakeHandler = request => ({ text: `echo: ${lastUserText(request).slice(0, 80)}` })
  private server: Server | undefined
  private port = 0

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** For OPENAI_BASE_URL. */
  get openaiBaseURL(): string {
    return `${this.url}/v1`
  }

  /** For ANTHROPIC_BASE_URL. */
  get anthropicBaseURL(): string {
    return this.url
  }

  /** Replies used in order, one per request, before the handler is asked. */
  script(...replies: FakeReply[]): this {
    this.queue.push(...replies)
    return this
  }

  onRequest(handler: FakeHandler): this {
    this.handler = handler
    return this
  }

  reset(): void {
    this.queue.length = 0
    this.requests.length = 0
    this.maxInFlight = this.inFlight
    this.handler = request => ({ text: `echo: ${lastUserText(request).slice(0, 80)}` })
  }

  env(): Record<string, string> {
    return { OPENAI_API_KEY: 'sk-fake-openai-key-123456', OPENAI_BASE_URL: this.openaiBaseURL, ANTHROPIC_API_KEY: 'sk-ant-fake-anthropic-key-123456', ANTHROPIC_BASE_URL: this.anthropicBaseURL }
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>(resolve => this.server!.listen(port, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
    return this
  }

  async stop(): Promise<void> {
    if (!this.server) return
    this.server.closeAllConnections()
    await new Promise<void>(resolve => this.server!.close(() => resolve()))
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const path = req.url ?? ''
    const api: FakeApi | undefined = path.endsWith('/chat/completions') ? 'openai' : path.endsWith('/messages') ? 'anthropic' : path.endsWith('/embeddings') ? 'openai-embeddings' : undefined
    if (!api) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
      return
    }
    let body: any
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    }
    catch {
      body = null
    }
    const request: RecordedRequest = { api, path, headers: req.headers, body, aborted: false }
    this.requests.push(request)
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight)
    res.on('close', () => {
      this.inFlight--
      if (!res.writableFinished) request.aborted = true
    })
    const reply = this.queue.shift() ?? await this.handler(request)
    if (reply.delayMs) await new Promise(resolve => setTimeout(resolve, reply.delayMs))
    if (reply.reset) {
      req.socket.destroy()
      return
    }
    const status = reply.status ?? 200
    const payload = reply.body ?? JSON.stringify(status >= 400 ? errorBody(api, status) : successBody(api, request, reply))
    res.writeHead(status, { 'content-type': 'application/json', ...reply.headers })
    if (reply.resetMidBody) {
      res.write(payload.slice(0, Math.floor(payload.length / 2)))
      setTimeout(() => req.socket.destroy(), 5)
      return
    }
    if (reply.dripMs) {
      for (let i = 0; i < payload.length; i += 8) {
        if (res.destroyed) return
        res.write(payload.slice(i, i + 8))
        await new Promise(resolve => setTimeout(resolve, reply.dripMs))
      }
      res.end()
      return
    }
    res.end(payload)
  }
}

export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string, content: unknown }>
  const last = [...messages].reverse().find(m => m.role === 'user')
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  return (last.content as Array<{ text?: string }>).map(part => part.text ?? '').join('')
}

function errorBody(api: FakeApi, status: number) {
  const message = `fake error ${status}`
  return api !== 'anthropic'
    ? { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }
    : { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } }
}

function successBody(api: FakeApi, request: RecordedRequest, reply: FakeReply) {
  const usage = reply.usage ?? { input_tokens: 11, output_tokens: 7 }
  const model = request.body?.model ?? 'fake-model'
  if (api === 'openai-embeddings') return embeddingsBody(request, reply, model, usage.input_tokens)
  if (api === 'openai') {
    const content = reply.json !== undefined ? JSON.stringify(reply.json) : reply.text ?? ''
    return {
      id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.refusal ? null : content, refusal: reply.refusal ?? null }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens },
    }
  }
  const tool = request.body?.tool_choice?.name as string | undefined
  const content = reply.json !== undefined && tool
    ? [{ type: 'tool_use', id: 'toolu_fake', name: tool, input: reply.json }]
    : [{ type: 'text', text: reply.json !== undefined ? JSON.stringify(reply.json) : reply.text ?? '' }]
  return {
    id: 'msg_fake', type: 'message', role: 'assistant', model, content,
    stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null, usage,
  }
}

function embeddingsBody(request: RecordedRequest, reply: FakeReply, model: string, inputTokens: number) {
  const input = request.body?.input
  const count = Array.isArray(input) ? input.length : 1
  const vectors = reply.embeddings ?? Array.from({ length: count }, () => Array.from<number>({ length: 8 }).fill(0))
  return {
    object: 'list', model,
    // The openai SDK asks for base64 (little-endian float32) unless told otherwise; other clients get numbers.
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding: request.body?.encoding_format === 'base64' ? Buffer.from(new Float32Array(embedding).buffer).toString('base64') : embedding })),
    usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
  }
}

/** A fake server run as its own process (used by tests that kill and restart the app). */
export async function startFakeLLM(port = 0): Promise<FakeLLM> {
  return new FakeLLM().start(port)
}
