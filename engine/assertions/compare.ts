import { graderFailure } from './graded'
import { isAbort, type Assertion, type AssertionHandler, type AssertionServices, type HandlerGrade } from './types'

/**
 * Assertions that compare the outputs of one test across its prompts × providers (promptfoo's
 * `select-best`): they cannot grade one output alone. A test's own grading leaves them out and says
 * they wait; once every cell of the test has its output, one grader call over all of them decides,
 * and each cell's verdict takes the comparison's, as promptfoo merges it.
 */

export const SELECT_BEST = 'select-best'

/** Why a cell's verdict waits: the comparison runs once the test's other cells have their outputs. */
export const AWAITING_REASON = 'select-best compares this output with the test\'s other prompts × providers: it is decided by a dataset run once every cell has run'

const SELECT_SYSTEM = 'You compare several texts to find the one that best fits the criteria. Answer with the index of that text and nothing else: a single integer.'

function selectPrompt(criteria: string, outputs: readonly string[]): string {
  const texts = outputs.map((output, index) => `<Text index="${index}">\n${output}\n</Text>`).join('\n\n')
  return `Criteria: ${criteria}\n\nThe texts:\n\n${texts}\n\nWhich text best fits the criteria? Answer with its index.`
}

/**
 * One grade per output: the output the grader picks passes (score 1), every other fails (score 0);
 * an answer with no index in range, or a grader that fails, fails them all, as promptfoo's does.
 */
export async function selectBest(assertion: Assertion, outputs: readonly string[], services: AssertionServices): Promise<HandlerGrade[]> {
  const criteria = String(assertion.value)
  if (outputs.length < 2) return outputs.map(() => graderFailure('select-best needs at least two outputs to compare; this test has fewer (a cell errored, or the grid has one cell)'))
  if (!services.ask) throw new Error('select-best needs a grader, and none is configured')
  let answer: string
  try {
    answer = await services.ask({ model: assertion.grader, what: SELECT_BEST, system: SELECT_SYSTEM, prompt: selectPrompt(criteria, outputs), judged: { output: outputs.join('\n'), criterion: criteria } })
  }
  catch (error) {
    if (isAbort(error)) throw error
    return outputs.map(() => graderFailure((error as Error).message))
  }
  if (!answer.trim()) return outputs.map(() => graderFailure('No output'))
  const first = /\d+/.exec(answer.trim())
  const verdict = first ? Number.parseInt(first[0], 10) : Number.NaN
  if (Number.isNaN(verdict) || verdict < 0 || verdict >= outputs.length) return outputs.map(() => ({ pass: false, score: 0, reason: `Invalid select-best verdict: ${verdict}` }))
  return outputs.map((_, index) => (index === verdict
    ? { pass: true, score: 1, reason: `Output selected as the best: ${criteria}` }
    : { pass: false, score: 0, reason: `Output not selected: ${criteria}` }))
}

export const compareHandlers: AssertionHandler[] = [
  {
    type: SELECT_BEST,
    label: 'select-best',
    description: 'A grader model picks the best of the test\'s outputs across its prompts × providers: that one passes, the others fail.',
    needs: 'grader',
    comparesOutputs: true,
    check: a => (typeof a.value === 'string' && a.value.trim() ? undefined : 'must have the criteria (a text) as its value'),
    handle() {
      throw new Error('select-best compares a test\'s outputs with each other: it is graded over all of them, never one alone')
    },
  },
]
