import { graderFailure } from './graded'
import { isAbort, type AssertionHandler, type HandlerGrade, type HandlerInput } from './types'

/** `similar` and its metrics: the output against the expected text by the embedding model's vectors. */

const EPSILON = Number.EPSILON

export const cosine = (a: number[], b: number[]) => {
  if (a.length !== b.length) throw new Error('Vectors must be of equal length')
  const dot = a.reduce((sum, x, i) => sum + x * b[i]!, 0)
  const na = Math.sqrt(a.reduce((sum, x) => sum + x * x, 0))
  const nb = Math.sqrt(b.reduce((sum, x) => sum + x * x, 0))
  return na === 0 || nb === 0 ? 0 : dot / (na * nb)
}

export async function embed(input: HandlerInput, texts: string[]): Promise<number[][] | HandlerGrade> {
  if (!input.services.embed) throw new Error(`${input.assertion.type} needs an embedding model, and none is configured`)
  try {
    return await input.services.embed(texts, input.assertion.embedding_model)
  }
  catch (error) {
    if (isAbort(error)) throw error
    return graderFailure((error as Error).message)
  }
}

/** `similar` (cosine), `similar:dot` and `similar:euclidean`: the output against the value (or any of a list) by embeddings. */
function similarHandler(type: 'similar' | 'similar:cosine' | 'similar:dot' | 'similar:euclidean'): AssertionHandler {
  const metric = type === 'similar:dot' ? 'dot' : type === 'similar:euclidean' ? 'euclidean' : 'cosine'
  return {
    type, label: type, description: `The output's embedding is ${metric === 'euclidean' ? 'within `threshold` distance of' : 'at least `threshold` (default 0.75) similar to'} the value's (any item of a list).`, needs: 'embeddings', negatable: true,
    check: a => (typeof a.value === 'string' || (Array.isArray(a.value) && a.value.length > 0 && a.value.every(v => typeof v === 'string')) ? undefined : 'must have a text or a list of texts as its value'),
    async handle(input) {
      const threshold = input.assertion.threshold ?? 0.75
      const values = Array.isArray(input.assertion.value) ? input.assertion.value as string[] : [String(input.assertion.value)]
      const grades: HandlerGrade[] = []
      for (const value of values) {
        const vectors = await embed(input, [value, input.text])
        if (!Array.isArray(vectors)) return vectors
        const [a, b] = vectors as [number[], number[]]
        const grade = metric === 'euclidean' ? byDistance(Math.sqrt(a.reduce((sum, x, i) => sum + (x - b[i]!) ** 2, 0)), threshold, input.inverse) : bySimilarity(metric === 'dot' ? a.reduce((sum, x, i) => sum + x * b[i]!, 0) : cosine(a, b), threshold, input.inverse)
        if (!Array.isArray(input.assertion.value)) return grade
        if (input.inverse && !grade.pass) return grade
        if (!input.inverse && grade.pass) return grade
        grades.push(grade)
      }
      if (input.inverse) return grades.reduce((closest, g) => (g.score < closest.score ? g : closest))
      return { pass: false, score: Math.max(...grades.map(g => g.score)), reason: 'None of the provided values met the similarity threshold' }
    },
  }
}

function bySimilarity(similarity: number, threshold: number, inverse: boolean): HandlerGrade {
  const pass = inverse ? similarity <= threshold + EPSILON : similarity >= threshold - EPSILON
  const above = `Similarity ${similarity.toFixed(2)} is greater than or equal to threshold ${threshold}`
  const below = `Similarity ${similarity.toFixed(2)} is less than threshold ${threshold}`
  return { pass, score: inverse ? 1 - similarity : similarity, reason: pass ? (inverse ? below : above) : (inverse ? above : below) }
}

function byDistance(distance: number, threshold: number, inverse: boolean): HandlerGrade {
  const pass = inverse ? distance >= threshold - EPSILON : distance <= threshold + EPSILON
  const normalised = 1 / (1 + distance)
  const below = `Distance ${distance.toFixed(2)} is less than or equal to threshold ${threshold}`
  const above = `Distance ${distance.toFixed(2)} is greater than threshold ${threshold}`
  return { pass, score: inverse ? 1 - normalised : normalised, reason: pass ? (inverse ? above : below) : (inverse ? below : above) }
}

export const embeddingHandlers: AssertionHandler[] = [similarHandler('similar'), similarHandler('similar:cosine'), similarHandler('similar:dot'), similarHandler('similar:euclidean')]
