import { describe, expect, it } from 'vitest'
import { ASSERTION_HANDLERS } from '../../../engine/assertions/registry'
import { selectBest } from '../../../engine/assertions/compare'
import type { AssertionHandler, AssertionServices } from '../../../engine/assertions/types'

/**
 * What each handler says it needs (`needs`, `alsoEmbeds`) is what the estimate, the call budget, the
 * key check, the offline check and the importer's "names no grader" read instead of lists of names:
 * so it must be what the handler does. Each handler is run once with services that note what is
 * asked of them.
 */
async function servicesUsed(handler: AssertionHandler): Promise<Set<string>> {
  const used = new Set<string>()
  const services: AssertionServices = {
    async grade() {
      used.add('grader')
      return { pass: true, score: 1, reason: 'fits', verdict: 'yes', answer: 'A', steps: [] }
    },
    async ask() {
      used.add('grader')
      return '1'
    },
    async embed(texts) {
      used.add('embeddings')
      return texts.map(() => [1, 0])
    },
    async runScript() {
      used.add('code')
      return true
    },
  }
  const assertion = { type: handler.type, value: 'The capital of France is Paris.', threshold: 0.5 }
  const target = { output: 'Paris is the capital of France.', prompt: 'What is the capital of France?', vars: { query: 'What is the capital of France?', context: 'France\'s capital is Paris.' }, latencyMs: 10, costUsd: 0.001 }
  try {
    if (handler.comparesOutputs) await selectBest(assertion, ['Paris', 'Lyon'], services)
    else await handler.handle({ assertion, baseType: handler.type, inverse: false, text: String(target.output), target, services })
  }
  catch {
    // What it asked for before it failed is what counts.
  }
  return used
}

describe('each assertion handler declares the services it uses', () => {
  it('a handler asks a grader model, an embedding model or the code sandbox exactly when its definition says so', async () => {
    const found: Array<[string, string[]]> = []
    const declared: Array<[string, string[]]> = []
    for (const handler of ASSERTION_HANDLERS.values()) {
      found.push([handler.type, [...await servicesUsed(handler)].sort()])
      const says = new Set<string>()
      if (handler.needs === 'grader' || handler.needs === 'embeddings' || handler.needs === 'code') says.add(handler.needs)
      if (handler.alsoEmbeds) says.add('embeddings')
      declared.push([handler.type, [...says].sort()])
    }
    expect(found).toEqual(declared)
    // The run reached every kind: a handler that fails before asking would hide a wrong flag.
    expect(new Set(found.flatMap(([, used]) => used))).toEqual(new Set(['grader', 'embeddings', 'code']))
  })
})
