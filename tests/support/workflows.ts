import { builtinSteps, defineStep, StepRegistry, createProviders, type ExecuteOptions, type RunEvent } from '../../engine'
import { z } from 'zod'

interface JudgeVerdict { left: string, right: unknown, feedback: string }
/** A judge step's verdict as an evaluator or a pinned judge gives it: `passed`, and its `feedback`. */
const JUDGE_PASSED = { left: '{{steps.judge.passed}}', right: true, feedback: '{{steps.judge.feedback}}' }
/** A judge that is an LLM answering the word `pass` or `fail`: its text is both the verdict and the feedback. */
export const JUDGE_SAYS_PASS = { left: '{{steps.judge.text}}', right: 'pass', feedback: '{{steps.judge.text}}' }

/** A quality gate (draft, judge, check, retry the draft up to 3 times) with pinned LLM and judge outputs, so it runs offline. */
export function qualityGate(pinnedDraft: string[], judgePassed: boolean[]) {
  return gateAround('Quality gate', [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}\n{{steps.judge.feedback}} (attempt {{attempt}})' }, pinned: pinnedDraft },
    { id: 'judge', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Judge: {{steps.draft.text}}' }, pinned: judgePassed.map((passed, i) => ({ passed, feedback: `feedback ${i + 1}` })) },
  ])
}

/**
 * The rest of a quality gate after its nodes `in`, `draft` and `judge`: check the judge's verdict
 * (by default its `passed` is true), retry the draft up to 3 times, output the draft (pass) or the
 * judge's feedback (fail).
 */
export function gateAround(name: string, [input, draft, judge]: [object, object, object], verdict: JudgeVerdict = JUDGE_PASSED) {
  return {
    name,
    nodes: [
      input, draft, judge,
      { id: 'check', type: 'condition', config: { left: verdict.left, op: 'eq', right: verdict.right } },
      { id: 'again', type: 'retry', config: { target: 'draft', max_attempts: 3 } },
      { id: 'ok', type: 'output', config: { verdict: 'pass', value: '{{steps.draft.text}}' } },
      { id: 'ko', type: 'output', config: { verdict: 'fail', value: verdict.feedback } },
    ],
    edges: [
      { from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' },
      { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'again', when: 'false' },
      { from: 'again', to: 'ko', when: 'exhausted' },
    ],
  }
}

/** A step that waits `ms` (honouring the abort signal) and reports how many ran at once. */
export function sleepStep(tracker = { running: 0, peak: 0, order: [] as string[] }) {
  const step = defineStep({
    type: 'sleep',
    label: 'Sleep',
    description: 'Waits, for tests.',
    configSchema: z.object({ ms: z.number().default(0), value: z.unknown().optional(), fail: z.boolean().optional() }),
    async run({ config, signal, node }) {
      tracker.running++
      tracker.peak = Math.max(tracker.peak, tracker.running)
      tracker.order.push(node.id)
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, config.ms)
          signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason) }, { once: true })
        })
        if (config.fail) throw new Error(`${node.id} failed on purpose`)
        return { output: { value: config.value ?? node.id } }
      }
      finally {
        tracker.running--
      }
    },
  })
  return { step, tracker }
}

export function testDeps(extra: Parameters<typeof defineStep>[0][] = [], env: Record<string, string | undefined> = {}) {
  const events: RunEvent[] = []
  const options: ExecuteOptions = {
    registry: new StepRegistry([...builtinSteps, ...extra]),
    providers: createProviders({ env, retry: { baseDelayMs: 1, maxDelayMs: 5 } }),
    onEvent: (event) => { events.push(event) },
  }
  return { options, events }
}

/**
 * A chain of LLM calls (`step a`, `step b after {{steps.a.text}}`, …) ending in a passing output
 * of the last answer: a multi-step run whose every step is a model call, for crash tests.
 */
export function llmChain(steps: readonly string[]) {
  return {
    name: `${steps.length} calls`,
    nodes: [
      ...steps.map((id, i) => ({ id, type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: i ? `step ${id} after {{steps.${steps[i - 1]}.text}}` : `step ${id}` } })),
      { id: 'done', type: 'output', config: { verdict: 'pass', value: `{{steps.${steps.at(-1)}.text}}` } },
    ],
    edges: [...steps.slice(1).map((id, i) => ({ from: steps[i]!, to: id })), { from: steps.at(-1)!, to: 'done' }],
  }
}

/** A workflow of `sleep` steps: in → first (quick) → second (sleeps `ms`) → out. */
export const sleepChain = (ms: number) => ({
  name: 'chain',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'first', type: 'sleep', config: { ms: 0, value: 'one' } },
    { id: 'second', type: 'sleep', config: { ms, value: 'two' } },
    { id: 'out', type: 'output', config: { value: '{{steps.second.value}}' } },
  ],
  edges: [{ from: 'in', to: 'first' }, { from: 'first', to: 'second' }, { from: 'second', to: 'out' }],
})

/** An input step and an evaluator that reads its config from `config_file` and judges `input.text`. */
export const configFileWorkflow = (configFile: string) => ({
  name: `config ${configFile}`,
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'judge', type: 'evaluator', config: { config_file: configFile, content: '{{input.text}}' } },
  ],
  edges: [{ from: 'in', to: 'judge' }],
})
