import { z } from 'zod'
import type { EvaluatorResult } from '../../schema/evaluator'
import { JudgeflowError } from '../../errors'
import { MAX_VALUE_DEPTH, parseJsonWithin } from '../../text/safe-json'
import { askJudge, recordCall } from '../../evaluator/judge'
import { confidenceOf, marginOf, roundScore } from '../../evaluator/arithmetic'
import { isHeuristic, requireText, type EvaluationContext } from '../../evaluator/context'
import type { ResolvedEvaluatorConfig } from '../../evaluator/config'
import { ASSERTION_HANDLERS, assertionProblems, needsOf } from '../../assertions/registry'
import { AWAITING_REASON, selectBest } from '../../assertions/compare'
import { runAssertions } from '../../assertions/run'
import { DEFAULT_EMBEDDING_MODEL, type Assertion, type AssertionServices, type GraderRequest } from '../../assertions/types'
import type { EvaluatorConfigOf } from '../config-schema'
import { baseResult } from '../result'
import { assertionSchema } from './schema'

type Config = ResolvedEvaluatorConfig<EvaluatorConfigOf<'assertions'>>

/** A rendered list may be empty: an imported promptfoo test without assertions passes, as promptfoo passes it. */
const listSchema = z.array(assertionSchema)

/** The assertions, threshold and vars as the run rendered them: a reference that gave something else is refused, naming the field. */
function renderedParts(config: Config): { list: Assertion[], threshold: number | undefined, vars: Record<string, unknown> } {
  const parsed = listSchema.safeParse(config.assert)
  if (!parsed.success) throw new JudgeflowError('INVALID_INPUT', `assert: ${typeof config.assert === 'string' ? `the reference gave ${JSON.stringify(config.assert).slice(0, 80)}, not` : 'is not'} a list of assertions (${parsed.error.issues[0]!.message} at ${parsed.error.issues[0]!.path.join('.') || 'the top'})`)
  const problems = parsed.data.flatMap((a, i) => assertionProblems(a, `assert[${i}]`))
  if (problems.length) throw new JudgeflowError('INVALID_INPUT', problems.join('; '))
  const threshold = config.threshold ?? undefined
  if (threshold !== undefined && typeof threshold !== 'number') throw new JudgeflowError('INVALID_INPUT', `threshold: the reference gave ${JSON.stringify(threshold)}, not a number`)
  const vars = config.vars ?? {}
  if (typeof vars !== 'object' || Array.isArray(vars)) throw new JudgeflowError('INVALID_INPUT', 'vars: the reference gave something other than an object of vars')
  return { list: parsed.data, threshold, vars }
}

/** The grader of model-graded assertions: the judge model, asked for the JSON each assertion reads. */
function graderOf(ctx: EvaluationContext<Config>): AssertionServices['grade'] {
  return async (request: GraderRequest) => {
    const model = request.model ?? ctx.config.model
    if (isHeuristic(model)) {
      // Asked for by name only: the offline judge scores by word overlap, passing at the assertion's threshold, else 0.5.
      const verdict = ctx.heuristic.scoreCriterion(request.what, request.judged.criterion, request.judged.output)
      return { pass: verdict.score >= (request.judged.threshold ?? 0.5), score: verdict.score, reason: `${verdict.reason} (offline judge, local:heuristic)` }
    }
    return askJudge(ctx.providers, model, {
      prompt: { system: request.system, user: request.prompt },
      jsonSchema: { name: request.what.replace(/[^a-zA-Z0-9_-]/g, '_'), schema: request.schema },
      validate: json => (json && typeof json === 'object' && !Array.isArray(json) ? { ok: true, value: json as Record<string, unknown> } : { ok: false, problem: 'the answer is not a JSON object' }),
      temperature: ctx.config.temperature,
      maxTokens: ctx.config.max_tokens,
      maxRetries: ctx.config.max_retries,
      cache: ctx.config.cache,
      signal: ctx.signal,
      what: request.what,
    }, ctx.stats)
  }
}

/** Text answers (graders whose answer is not JSON), from the judge model. */
function askerOf(ctx: EvaluationContext<Config>): AssertionServices['ask'] {
  return async (request) => {
    const model = request.model ?? ctx.config.model
    if (isHeuristic(model)) throw new JudgeflowError('INVALID_CONFIG', `${request.what} needs a grader model: the offline local:heuristic judge answers llm-rubric only`)
    const answer = await ctx.providers.complete(model, {
      system: request.system,
      messages: [{ role: 'user', content: request.prompt }],
      temperature: ctx.config.temperature ?? 0,
      ...(ctx.config.max_tokens ? { max_tokens: ctx.config.max_tokens } : {}),
      ...(ctx.config.cache === undefined ? {} : { cache: ctx.config.cache }),
    }, { signal: ctx.signal })
    recordCall(ctx.stats, model, answer)
    return answer.text
  }
}

/** The outputs to compare, as the candidates give them (a comparison of a test's cells). */
function candidateTexts(ctx: EvaluationContext<Config>): string[] | undefined {
  const candidates = ctx.input.candidates
  return candidates?.map(c => (typeof c === 'string' ? c : c.text))
}

/** The model-graded services: the grader (JSON and text answers) and the embedding model. */
function servicesOf(ctx: EvaluationContext<Config>): AssertionServices {
  return {
    grade: graderOf(ctx),
    ask: askerOf(ctx),
    embed: (texts, model) => ctx.providers.embed(model ?? ctx.config.embedding_model ?? DEFAULT_EMBEDDING_MODEL, texts, { signal: ctx.signal }),
    runScript: ctx.scripts?.run,
    signal: ctx.signal,
  }
}

/**
 * A test's outputs compared (select-best over the candidates, one per cell of the test, in the
 * grid's order): one grade per candidate, passed when the grader picked one of them.
 */
async function evaluateComparison(ctx: EvaluationContext<Config>, list: Assertion[], outputs: string[]): Promise<EvaluatorResult> {
  const compared = list.filter(a => ASSERTION_HANDLERS.get(a.type)?.comparesOutputs)
  if (compared.length !== 1 || compared.length !== list.length) {
    const given = list.map(a => a.type).join(', ')
    throw new JudgeflowError('INVALID_INPUT', `assert: a comparison of candidates takes one select-best assertion alone (given: ${given})`)
  }
  const assertion = compared[0]!
  const selections = (await selectBest(assertion, outputs, servicesOf(ctx))).map(grade => ({ type: assertion.type, weight: assertion.weight ?? 1, ...grade }))
  const chosen = selections.findIndex(grade => grade.pass)
  const factors = { agreement: 1, margin: 1, validity: selections.some(s => s.graderError) ? 0 : 1, judge: 1 }
  return {
    ...baseResult(ctx),
    passed: chosen >= 0,
    overall_score: chosen >= 0 ? 1 : 0,
    criteria_scores: Object.fromEntries(selections.map((s, i) => [`candidate_${i + 1}`, s.score])),
    criteria_reasons: Object.fromEntries(selections.map((s, i) => [`candidate_${i + 1}`, s.reason])),
    feedback: chosen >= 0 ? `candidate ${chosen + 1} selected` : selections[0]?.reason ?? '',
    suggestions: [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    named_scores: {},
    assertions: [],
    selections,
  }
}

const TRANSFORM_OWNER = { response_transform: 'provider\'s transformResponse', provider_transform: 'provider\'s transform', transform: 'test\'s transform' }

/**
 * The output as promptfoo's provider hands it on: an http provider without a transformResponse parses
 * the body as JSON when it is (and not a falsy value), an OpenAI chat answer to a json_schema format
 * is parsed whatever it holds; text that is not JSON stays text.
 */
function providerOutput(text: string, how: Config['provider_output']): unknown {
  if (!how) return text
  try {
    const parsed = parseJsonWithin(text, MAX_VALUE_DEPTH)
    return how === 'json' ? parsed : parsed || text
  }
  catch {
    return text
  }
}

/** JavaScript that turns the output (a provider's transform, the test's), or none. */
const codeOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined)

/** promptfoo's assertions on the content: the verdict and score of promptfoo's test, each assertion's grade kept. */
export async function evaluateAssertions(ctx: EvaluationContext<Config>): Promise<EvaluatorResult> {
  const { list, threshold, vars } = renderedParts(ctx.config)
  const candidates = candidateTexts(ctx)
  if (candidates) return evaluateComparison(ctx, list, candidates)
  // An empty answer is an answer: promptfoo grades it (is-refusal passes it, contains fails it).
  const output = ctx.input.content === '' ? '' : requireText(ctx.input.content, 'content')
  const needs = needsOf(list)
  const transforms = [
    ['response_transform', codeOf(ctx.config.response_transform)], ['provider_transform', codeOf(ctx.config.provider_transform)], ['transform', codeOf(ctx.config.transform)],
  ] as const
  if (needs.has('code') || transforms.some(([, code]) => code)) {
    if (!ctx.scripts) throw new JudgeflowError('INVALID_CONFIG', 'javascript, python and transform run code, which this server does not allow: set JUDGEFLOW_ALLOW_CODE=1 where the server runs, or run the suite with the judgeflow CLI')
    await ctx.scripts.ready()
  }
  const latency = ctx.config.latency_ms
  // The provider's transform turns the output first, then the test's (promptfoo's options.transform); an assertion's own comes after them.
  let graded: unknown = providerOutput(output, ctx.config.provider_output)
  for (const [field, code] of transforms) {
    if (!code) continue
    graded = await ctx.scripts!.run('javascript', code, { output: graded, context: { vars, prompt: ctx.input.context } }, 'transform')
    if (graded === undefined || graded === null) throw new JudgeflowError('INVALID_INPUT', `${field}: the ${TRANSFORM_OWNER[field]} did not return a value`)
  }
  const test = await runAssertions(list, {
    output: graded,
    prompt: ctx.input.context,
    vars,
    latencyMs: typeof latency === 'number' ? latency : undefined,
    costUsd: typeof ctx.config.cost_usd === 'number' ? ctx.config.cost_usd : null,
  }, servicesOf(ctx), threshold)
  const gradedText = typeof graded === 'string' ? graded : JSON.stringify(graded)
  // A comparison with the test's other cells is still to come: failed, saying so, until a dataset run decides it.
  const awaiting = test.awaiting[0]
  const comparison = awaiting
    ? {
        assertion: { ...awaiting, grader: awaiting.grader ?? ctx.config.model },
        output: gradedText,
        pass: test.pass,
        score: test.score,
        reason: test.reason,
      }
    : undefined
  if (awaiting) test.assertions.push({ type: awaiting.type, weight: awaiting.weight ?? 1, pass: false, score: 0, reason: AWAITING_REASON, awaiting: true })

  const criteria_scores: Record<string, number> = {}
  const criteria_reasons: Record<string, string> = {}
  const counts = new Map<string, number>()
  for (const grade of test.assertions) {
    const base = grade.type.replace(/-/g, '_')
    const n = (counts.get(base) ?? 0) + 1
    counts.set(base, n)
    const key = `${base}_${n}`
    criteria_scores[key] = roundScore(grade.score)
    criteria_reasons[key] = `${grade.pass ? 'passed' : 'failed'}: ${grade.reason}`
  }
  const factors = {
    agreement: 1,
    margin: threshold === undefined ? 1 : marginOf(test.score, threshold),
    validity: test.assertions.some(a => a.graderError) ? 0 : 1,
    judge: 1,
  }
  return {
    ...baseResult(ctx),
    passed: test.pass && !comparison,
    overall_score: roundScore(test.score),
    criteria_scores,
    criteria_reasons,
    feedback: ctx.config.include_feedback ? (comparison ? AWAITING_REASON : test.reason) : '',
    suggestions: [],
    grade: null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    named_scores: test.named_scores,
    assertions: test.assertions,
    ...(gradedText === output ? {} : { graded_output: gradedText }),
    ...(comparison ? { awaiting_comparison: comparison } : {}),
  }
}
