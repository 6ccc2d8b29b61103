import { expect, test } from '@playwright/test'

test('the editor\'s HTML preloads the code that draws the workflow, so it loads beside the app\'s entry instead of after it', async ({ page, request }) => {
  // Placed steps, as the editor saves them (a workflow without positions loads the auto-layout's code to place them).
  const nodes = [{ id: 'in', type: 'input', position: { x: 0, y: 0 } }, { id: 'out', type: 'output', position: { x: 240, y: 0 } }]
  const created = await request.post('/api/workflows', { data: { name: 'preloaded', nodes, edges: [{ from: 'in', to: 'out' }] } })
  const { id } = await created.json() as { id: string }
  const html = await (await request.get(`/workflows/${id}`)).text()
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" as="script" crossorigin href="([^"]+)">/g)].map(m => m[1]!))
  // The entry and, beside it, the editor's own chunks.
  expect(preloaded.size).toBeGreaterThan(2)
  // Another page's HTML preloads the entry alone.
  expect([...(await (await request.get('/datasets')).text()).matchAll(/rel="modulepreload"/g)]).toHaveLength(1)

  const requested: string[] = []
  page.on('request', (r) => {
    // Modules fetched to run (prefetches of other pages' code, idle and unhurried, are not).
    if (r.resourceType() === 'script') requested.push(new URL(r.url()).pathname)
  })
  await page.goto(`/workflows/${id}`)
  await expect(page.locator('.vue-flow__node')).toHaveCount(2)
  // Every script the page needed to draw the workflow was preloaded by its HTML. The validation
  // worker's script is not one: it starts once the steps are drawn and the page is idle, sometimes
  // before this line, and a worker's script cannot be served by a modulepreload.
  const unpreloaded = [...new Set(requested)].filter(path => !preloaded.has(path) && !/\/validate\.worker-[^/]+\.js$/.test(path))
  expect(unpreloaded).toEqual([])
})
