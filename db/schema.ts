import { foreignKey, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { OnlineEvaluatorRef } from '../core/online-rows'
import type { OnlineFilter } from '../engine/online/selection'
import type { ReviewJudge, ReviewRubric, ReviewSource } from '../core/review-rows'

/** Times are epoch milliseconds. JSON columns hold what the engine produced, as it produced it. */
export const workflows = sqliteTable('workflows', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  currentVersion: integer('current_version').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** Every save is a new version; a run records the version it ran. */
export const workflowVersions = sqliteTable('workflow_versions', {
  workflowId: text('workflow_id').notNull().references(() => workflows.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  definition: text('definition', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  createdAt: integer('created_at').notNull(),
}, t => [primaryKey({ columns: [t.workflowId, t.version] })])

export const runs = sqliteTable('runs', {
  id: text('id').primaryKey(),
  workflowId: text('workflow_id').references(() => workflows.id, { onDelete: 'cascade' }),
  workflowVersion: integer('workflow_version'),
  /** The definition as run, so a run can be resumed and inspected whatever happens to the workflow. */
  definition: text('definition', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  input: text('input', { mode: 'json' }).$type<unknown>(),
  options: text('options', { mode: 'json' }).$type<Record<string, unknown>>(),
  status: text('status').notNull(),
  verdict: text('verdict'),
  output: text('output', { mode: 'json' }).$type<unknown>(),
  error: text('error', { mode: 'json' }).$type<unknown>(),
  /**
   * The process that holds the run (`host:pid:token`, a new token at every process start): the
   * run is held while that process's row in `lease_owners` has not expired.
   */
  leaseOwner: text('lease_owner'),
  /**
   * Resumes in a row that committed no new step, and when the run's latest committed step had
   * finished at its last resume: a run that keeps failing to resume is marked failed, not resumed forever.
   */
  resumesWithoutProgress: integer('resumes_without_progress').notNull().default(0),
  lastStepAtResume: integer('last_step_at_resume'),
  createdAt: integer('created_at').notNull(),
  startedAt: integer('started_at'),
  finishedAt: integer('finished_at'),
  durationMs: real('duration_ms'),
}, t => [
  index('runs_workflow_created').on(t.workflowId, t.createdAt), index('runs_status').on(t.status), index('runs_lease_owner').on(t.leaseOwner, t.status),
])

/**
 * One lease per process, not per run: its heartbeat renews this one row, and once it has expired
 * every unfinished run the process holds is free for another process to resume. A process id
 * alone cannot tell a crashed process from a live one.
 */
export const leaseOwners = sqliteTable('lease_owners', {
  owner: text('owner').primaryKey(),
  expiresAt: integer('expires_at').notNull(),
})

export const stepRuns = sqliteTable('step_runs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  runId: text('run_id').notNull().references(() => runs.id, { onDelete: 'cascade' }),
  nodeId: text('node_id').notNull(),
  attempt: integer('attempt').notNull(),
  status: text('status').notNull(),
  input: text('input', { mode: 'json' }).$type<unknown>(),
  output: text('output', { mode: 'json' }).$type<unknown>(),
  branch: text('branch'),
  error: text('error', { mode: 'json' }).$type<unknown>(),
  reason: text('reason'),
  rerun: text('rerun', { mode: 'json' }).$type<{ target: string, reason: string }>(),
  usage: text('usage', { mode: 'json' }).$type<{ input_tokens: number, output_tokens: number }>(),
  cached: integer('cached', { mode: 'boolean' }),
  pinned: integer('pinned', { mode: 'boolean' }),
  startedAt: integer('started_at'),
  finishedAt: integer('finished_at'),
  durationMs: real('duration_ms'),
}, t => [uniqueIndex('step_runs_run_node_attempt').on(t.runId, t.nodeId, t.attempt)])

/** The run's event log; its id is the SSE event id, so a client can resume from Last-Event-ID. */
export const runEvents = sqliteTable('run_events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  runId: text('run_id').notNull().references(() => runs.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  nodeId: text('node_id'),
  attempt: integer('attempt'),
  data: text('data', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  at: integer('at').notNull(),
}, t => [index('run_events_run').on(t.runId, t.id)])

/** Bounded in entries: the entries used longest ago are evicted first (`lastUsedAt`, set on every hit). */
export const llmCache = sqliteTable('llm_cache', {
  key: text('key').primaryKey(),
  provider: text('provider').notNull(),
  model: text('model').notNull(),
  response: text('response', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  createdAt: integer('created_at').notNull(),
  lastUsedAt: integer('last_used_at').notNull().default(0),
}, t => [index('llm_cache_last_used').on(t.lastUsedAt)])

/** Small facts about this database, e.g. that the templates were loaded once. */
export const appSettings = sqliteTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>(),
})

/** Experiments: test documents with answer keys and prompt variants (the variant-scoring rubric). */
export const experiments = sqliteTable('experiments', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  definition: text('definition', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  currentBest: text('current_best').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** Every round is kept: its runs, its judgments (corrected ones included) and its report. */
export const experimentRounds = sqliteTable('experiment_rounds', {
  id: text('id').primaryKey(),
  experimentId: text('experiment_id').notNull().references(() => experiments.id, { onDelete: 'cascade' }),
  number: integer('number').notNull(),
  status: text('status').notNull(),
  /** The current best when the round started; the variants judged in it. */
  currentBest: text('current_best').notNull(),
  runs: text('runs', { mode: 'json' }).notNull().$type<Array<{ variant: string, document: string, run: number, run_id: string }>>(),
  judgments: text('judgments', { mode: 'json' }).notNull().$type<unknown[]>(),
  report: text('report', { mode: 'json' }).$type<Record<string, unknown>>(),
  error: text('error', { mode: 'json' }).$type<unknown>(),
  createdAt: integer('created_at').notNull(),
  finishedAt: integer('finished_at'),
}, t => [uniqueIndex('experiment_rounds_number').on(t.experimentId, t.number)])

/** Datasets: named lists of cases. Every import or edit is a new version; a dataset run records the version it ran on. */
export const datasets = sqliteTable('datasets', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  currentVersion: integer('current_version').notNull(),
  caseCount: integer('case_count').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, t => [uniqueIndex('datasets_name').on(t.name)])

export const datasetVersions = sqliteTable('dataset_versions', {
  datasetId: text('dataset_id').notNull().references(() => datasets.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  cases: text('cases', { mode: 'json' }).notNull().$type<unknown[]>(),
  caseCount: integer('case_count').notNull(),
  createdAt: integer('created_at').notNull(),
}, t => [primaryKey({ columns: [t.datasetId, t.version] })])

/** A run of a workflow (or an evaluator alone) over every case of a dataset version. */
export const datasetRuns = sqliteTable('dataset_runs', {
  id: text('id').primaryKey(),
  datasetId: text('dataset_id').notNull().references(() => datasets.id, { onDelete: 'cascade' }),
  datasetVersion: integer('dataset_version').notNull(),
  /** `{ workflow_id, workflow_version }`, or `{ evaluator: <config> }`. */
  target: text('target', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  /** concurrency, repeat, score_step, gates, baseline_run_id. */
  options: text('options', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  status: text('status').notNull(),
  error: text('error', { mode: 'json' }).$type<unknown>(),
  report: text('report', { mode: 'json' }).$type<Record<string, unknown>>(),
  createdAt: integer('created_at').notNull(),
  finishedAt: integer('finished_at'),
}, t => [index('dataset_runs_dataset_created').on(t.datasetId, t.createdAt), index('dataset_runs_status').on(t.status)])

/**
 * One row per case and repeat, written before its run starts (with the run's id) and again when
 * the run ends: after a restart, a case with a result is never run again, and a case whose run
 * was under way is followed to that run's end rather than started anew.
 */
export const datasetRunCases = sqliteTable('dataset_run_cases', {
  datasetRunId: text('dataset_run_id').notNull().references(() => datasetRuns.id, { onDelete: 'cascade' }),
  caseId: text('case_id').notNull(),
  repeat: integer('repeat').notNull(),
  status: text('status').notNull(),
  runId: text('run_id'),
  result: text('result', { mode: 'json' }).$type<Record<string, unknown>>(),
  updatedAt: integer('updated_at').notNull(),
}, t => [primaryKey({ columns: [t.datasetRunId, t.caseId, t.repeat] })])

/** Online scoring's rules (DESIGN.md, "Production traces: online scoring"). */
export const onlineRules = sqliteTable('online_rules', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  /** `{ workflow_id, step_id }` or `{ config }`. */
  evaluator: text('evaluator', { mode: 'json' }).notNull().$type<OnlineEvaluatorRef>(),
  filter: text('filter', { mode: 'json' }).notNull().$type<OnlineFilter>(),
  sampleRate: real('sample_rate').notNull(),
  maxPerMinute: integer('max_per_minute'),
  maxCostUsdPerDay: real('max_cost_usd_per_day'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** GenAI spans received on /v1/traces: a span sent again is the same row. */
export const onlineSpans = sqliteTable('online_spans', {
  traceId: text('trace_id').notNull(),
  spanId: text('span_id').notNull(),
  parentSpanId: text('parent_span_id'),
  name: text('name').notNull(),
  serviceName: text('service_name'),
  operation: text('operation'),
  model: text('model'),
  inputText: text('input_text'),
  outputText: text('output_text'),
  systemInstructions: text('system_instructions'),
  usage: text('usage', { mode: 'json' }).$type<{ input_tokens: number | null, output_tokens: number | null }>(),
  statusCode: integer('status_code').notNull(),
  startedAt: integer('started_at').notNull(),
  endedAt: integer('ended_at').notNull(),
  attributes: text('attributes', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
  receivedAt: integer('received_at').notNull(),
}, t => [primaryKey({ columns: [t.traceId, t.spanId] }), index('online_spans_received').on(t.receivedAt)])

/** One decision per span and rule that saw it: filtered, sampled_out, queued, scored, failed or over_budget, with why. */
export const onlineDecisions = sqliteTable('online_decisions', {
  ruleId: text('rule_id').notNull().references(() => onlineRules.id, { onDelete: 'cascade' }),
  traceId: text('trace_id').notNull(),
  spanId: text('span_id').notNull(),
  status: text('status').notNull(),
  reason: text('reason'),
  score: real('score'),
  verdict: text('verdict'),
  runId: text('run_id'),
  costUsd: real('cost_usd'),
  decidedAt: integer('decided_at').notNull(),
  /** When its scoring was claimed: max_per_minute counts the rule's claims of the last minute. */
  claimedAt: integer('claimed_at'),
  updatedAt: integer('updated_at').notNull(),
}, t => [
  primaryKey({ columns: [t.ruleId, t.traceId, t.spanId] }),
  foreignKey({ columns: [t.traceId, t.spanId], foreignColumns: [onlineSpans.traceId, onlineSpans.spanId] }).onDelete('cascade'),
  index('online_decisions_rule_decided').on(t.ruleId, t.decidedAt), index('online_decisions_status').on(t.status, t.decidedAt),
  index('online_decisions_rule_claimed').on(t.ruleId, t.claimedAt),
])

/** Human review's queues (DESIGN.md, "Human review: annotation queues"). */
export const reviewQueues = sqliteTable('review_queues', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  rubric: text('rubric', { mode: 'json' }).notNull().$type<ReviewRubric>(),
  instructions: text('instructions'),
  reviewersPerItem: integer('reviewers_per_item').notNull(),
  leaseMinutes: integer('lease_minutes').notNull(),
  showJudge: integer('show_judge', { mode: 'boolean' }).notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** What a queue's reviewers judge: a snapshot of a judged output, from a dataset run's case, a run or an online decision, added once. */
export const reviewItems = sqliteTable('review_items', {
  id: text('id').primaryKey(),
  queueId: text('queue_id').notNull().references(() => reviewQueues.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  source: text('source', { mode: 'json' }).notNull().$type<ReviewSource>(),
  sourceKey: text('source_key').notNull(),
  input: text('input', { mode: 'json' }).$type<unknown>(),
  output: text('output', { mode: 'json' }).$type<unknown>(),
  context: text('context', { mode: 'json' }).$type<unknown>(),
  judge: text('judge', { mode: 'json' }).$type<ReviewJudge>(),
  createdAt: integer('created_at').notNull(),
}, t => [uniqueIndex('review_items_source').on(t.queueId, t.sourceKey), uniqueIndex('review_items_position').on(t.queueId, t.position)])

/** One label per reviewer and item: labelling again replaces it. */
export const reviewLabels = sqliteTable('review_labels', {
  itemId: text('item_id').notNull().references(() => reviewItems.id, { onDelete: 'cascade' }),
  queueId: text('queue_id').notNull(),
  reviewer: text('reviewer').notNull(),
  label: text('label').notNull(),
  score: real('score'),
  comment: text('comment'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, t => [primaryKey({ columns: [t.itemId, t.reviewer] }), index('review_labels_queue').on(t.queueId, t.reviewer)])

/** An item handed to a reviewer until a time, or skipped by them. */
export const reviewLeases = sqliteTable('review_leases', {
  itemId: text('item_id').notNull().references(() => reviewItems.id, { onDelete: 'cascade' }),
  queueId: text('queue_id').notNull(),
  reviewer: text('reviewer').notNull(),
  leasedUntil: integer('leased_until').notNull(),
  skipped: integer('skipped', { mode: 'boolean' }).notNull(),
}, t => [primaryKey({ columns: [t.itemId, t.reviewer] }), index('review_leases_queue').on(t.queueId, t.reviewer)])
