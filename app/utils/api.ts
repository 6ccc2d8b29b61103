/**
 * What the API answers, as its handlers in server/api type it (Nitro's route table, through JSON):
 * the web app reads these rather than describing the answers a second time.
 */
import type { InternalApi } from 'nitropack/types'
import type { ExperimentReport } from '~~/engine/experiments/recommend'
import type { Judgment } from '~~/engine/experiments/schema'
import type { Workflow } from '~~/engine/schema/workflow'

export type ApiAnswer<Route extends keyof InternalApi, Method extends keyof InternalApi[Route] = 'get' & keyof InternalApi[Route]> = InternalApi[Route][Method]

/** GET /api/steps: a step type with its config's JSON Schema. */
export type StepTypeInfo = ApiAnswer<'/api/steps'>[number]
export type ModelList = ApiAnswer<'/api/models'>
/** POST /api/http-test: an http step's test request, its status, latency and answer, or why it failed. */
export type HttpTestAnswer = ApiAnswer<'/api/http-test', 'post'>
/** A workflow's version; the database keeps its definition as JSON, checked with the engine's schema when saved. */
export type WorkflowDetail = Omit<ApiAnswer<'/api/workflows/:id'>, 'definition'> & { definition: Workflow }
export type SavedWorkflow = ApiAnswer<'/api/workflows/:id', 'put'>
/** A run as the workflow's history lists it. */
export type RunSummary = ApiAnswer<'/api/workflows/:id/runs'>[number]
export type StartedRun = ApiAnswer<'/api/workflows/:id/runs', 'post'>
export type StartedRound = ApiAnswer<'/api/experiments/:id/rounds', 'post'>

type ExperimentAnswer = ApiAnswer<'/api/experiments/:id'>
/** A round; the database keeps its judgments, report and error as JSON written from the engine's types. */
export type RoundView = Omit<ExperimentAnswer['rounds'][number], 'judgments' | 'report' | 'error'>
  & { judgments: Judgment[], report: ExperimentReport | null, error: { message: string } | null }
/** GET /api/experiments/:id: the definition with every round. */
export type ExperimentView = Omit<ExperimentAnswer, 'rounds'> & { rounds: RoundView[] }
