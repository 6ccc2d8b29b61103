/**
 * The "product" of the parity configs with custom providers: an application endpoint on loopback,
 * answering from the request alone so promptfoo and judgeflow get the same answers. A config names it
 * as `__PRODUCT_URL__`, put in by the recorder and the parity test alike (`withProductUrl`).
 *
 * - `POST /chat` (JSON `{ message }`): `{ "reply": { "text": <the message's last ECHO>>…<<ECHO block, or the message> }, "model": "product-1" }`
 * - `POST /fail` : 500 with the text `upstream failed: <the echo>`
 * - `GET /plain?q=…`: `text/plain` `<q>`
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const PRODUCT_PLACEHOLDER = '__PRODUCT_URL__'

export interface ProductServer {
  url: string
  stop(): Promise<void>
}

function echoOf(text: string): string {
  const blocks = [...text.matchAll(/ECHO>>([\s\S]*?)(?:<<ECHO|$)/g)]
  return blocks.length ? blocks.at(-1)![1]! : text
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startProductServer(port = 0): Promise<ProductServer> {
  const server: Server = createServer(async (req, res) => {
    const text = await bodyOf(req)
    const url = new URL(req.url ?? '/', 'http://product')
    let message = ''
    try {
      message = String((JSON.parse(text) as { message?: unknown }).message ?? '')
    }
    catch {}
    if (req.method === 'POST' && url.pathname === '/chat') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: { text: echoOf(message) }, model: 'product-1' }))
    }
    else if (req.method === 'POST' && url.pathname === '/fail') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream failed: ${echoOf(message)}`)
    }
    else if (req.method === 'GET' && url.pathname === '/plain') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(url.searchParams.get('q') ?? '')
    }
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route')
  })
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

/** A config's text with the product's URL in place of the placeholder. */
export function withProductUrl(text: string, product: ProductServer | undefined): string {
  return product ? text.split(PRODUCT_PLACEHOLDER).join(product.url) : text
}
