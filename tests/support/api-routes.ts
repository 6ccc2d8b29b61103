import * as h3 from 'h3'

/** A route of server/api: its method, its path with `:param`s, and its file under server/api. */
export type ApiRoute = [method: 'get' | 'post' | 'put' | 'delete', path: string, file: string]

export interface ApiAnswer {
  status: number
  /** Not enumerable: an answer still equals `{ status, body }`. */
  readonly headers: Headers
  body: { message?: string, data?: unknown, [key: string]: unknown } | null
}

/** Where a request comes from, as the server sees it (`getRequestIP`). */
export interface ApiCaller {
  clientAddress?: string
}

/** Files of server/middleware and server/plugins to load besides the routes, in the order Nitro runs them. */
export interface ApiServerParts {
  middleware?: string[]
  plugins?: string[]
}

type NitroLike = { h3App: h3.App, hooks: { hook(name: string, listener: (event: h3.H3Event) => void): void } }

/**
 * The server's API routes on h3 without a build, for a unit test: Nitro's auto-imports (h3's
 * functions and `defineNitroPlugin`) become globals, the middleware given runs first in its order,
 * each route's own module is mounted at its path, the plugins given are started with their
 * `request` hooks called as Nitro calls them (before any middleware), and the errors plugin
 * (server/plugins/http-errors.ts) wraps the app as Nitro does. The routes reach the app through
 * `useJudgeflow()`: the test mocks `server/utils/context` to hand them its own. Serve it over
 * node:http with `h3.toNodeListener`, or call it with `apiRoutes`.
 */
export async function apiApp(routes: readonly ApiRoute[], parts: ApiServerParts = {}): Promise<h3.App> {
  const globals = globalThis as Record<string, unknown>
  for (const [name, value] of Object.entries(h3)) globals[name] ??= value
  globals.defineNitroPlugin ??= (plugin: unknown) => plugin
  const requestHooks: ((event: h3.H3Event) => void)[] = []
  // An error answered as Nitro's own handler answers the API: with its message beside its data.
  const app = h3.createApp({
    onRequest: (event) => {
      for (const hook of requestHooks) hook(event)
    },
    onError: (error, event) => {
      h3.setResponseStatus(event, error.statusCode, error.statusMessage)
      h3.setResponseHeader(event, 'content-type', 'application/json')
      return h3.send(event, JSON.stringify({ statusCode: error.statusCode, statusMessage: error.statusMessage, message: error.message, data: error.data }))
    },
  })
  // Loaded by URL: the type checker of the tests leaves the server's modules, written against Nitro's auto-imports, to nuxt typecheck.
  const load = async <T>(file: string) => ((await import(/* @vite-ignore */ new URL(`../../server/${file}`, import.meta.url).href)) as { default: T }).default
  for (const file of parts.middleware ?? []) app.use(await load<h3.EventHandler>(`middleware/${file}`))
  const router = h3.createRouter()
  for (const [method, path, file] of routes) router[method](path, await load<h3.EventHandler>(`api/${file}`))
  app.use(router)
  const nitro: NitroLike = {
    h3App: app,
    hooks: {
      hook: (name, listener) => {
        if (name === 'request') requestHooks.push(listener)
      },
    },
  }
  for (const file of [...parts.plugins ?? [], 'http-errors.ts']) (await load<(nitro: NitroLike) => void>(`plugins/${file}`))(nitro)
  return app
}

/** `apiApp`'s routes, called without a server: `call(path, init, caller)` answers the status and the JSON body. */
export async function apiRoutes(routes: readonly ApiRoute[]): Promise<(path: string, init?: RequestInit, caller?: ApiCaller) => Promise<ApiAnswer>> {
  const handle = h3.toWebHandler(await apiApp(routes))
  return async (path, init, caller = {}) => {
    const response = await handle(new Request(`http://localhost${path}`, init), caller.clientAddress ? { clientAddress: caller.clientAddress } : undefined)
    const text = await response.text()
    const answer = { status: response.status, body: text ? JSON.parse(text) as ApiAnswer['body'] : null }
    return Object.defineProperty(answer, 'headers', { value: response.headers, enumerable: false }) as ApiAnswer
  }
}
