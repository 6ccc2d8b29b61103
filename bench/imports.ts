import { startAppServer } from '../tests/support/app-server'
import { healthTimesDuring } from './followers'
import { report } from './lib'

/** Imports just under the 1 MiB body limit, as users send them. */
const imports = [
  { name: 'a YAML list of 70,000 cases', format: 'yaml', text: Array.from({ length: 70_000 }, () => '- input: {}').join('\n') },
  { name: '60,000 cases on one line of JSON', format: 'json', text: JSON.stringify(Array.from({ length: 60_000 }, () => ({ input: {} }))) },
  { name: '70,000 cases on one line of YAML', format: 'yaml', text: `[${Array.from({ length: 70_000 }, () => '{input: {}}').join(', ')}]` },
]

/**
 * Each import through `POST /api/datasets` while a load balancer's health probe asks every 20 ms:
 * how long the import takes, and the slowest health answer meanwhile (the import is read on a
 * worker thread; what is left on the server's thread is storing the cases).
 */
export async function benchImports() {
  const server = await startAppServer()
  try {
    for (const [i, { name, format, text }] of imports.entries()) {
      let took = 0
      const times = await healthTimesDuring(server.url + '/api/health', async () => {
        const t0 = performance.now()
        const answer = await server.api('/api/datasets', { body: { name: `import-${i}`, format, text } })
        took = performance.now() - t0
        if (answer.status !== 201) throw new Error(`the import of ${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
      })
      report({ name: `import of ${name} (just under 1 MiB)`, value: took, unit: 'ms', target: 'reported' })
      report({ name: `slowest /api/health answer during the import of ${name}`, value: Math.max(...times), unit: 'ms', target: '<= 200' })
    }
  }
  finally {
    await server.stop()
  }
}
