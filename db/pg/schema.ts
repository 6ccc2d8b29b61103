import { bigint, bigserial, boolean, doublePrecision, foreignKey, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { OnlineEvaluatorRef } from '../../core/online-rows'
import type { OnlineFilter } from '../../engine/online/selection'
import type { ReviewJudge, ReviewRubric, ReviewSource } from '../../core/review-rows'

/**
 * The PostgreSQL schema: the SQLite one (`db/schema.ts`) table for table and column for column,
 * with bigint for epoch milliseconds and json (not jsonb) for JSON: json keeps the text as the
 * engine wrote it, key order included, which a resumed run relies on when it compares a step's
 * rendered input with its record, and people on reading a definition back. Change both together.
 */
export const workflows = pgTable('workflows', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  currentVersion: integer('current_version').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
})

/** Every save is a new version; a run records the version it ran. */
export const workflowVersions = pgTable('workflow_versions', {
  workflowId: text('workflow_id').notNull().references(() => workflows.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  definition: json('definition').notNull().$type<Record<string, unknown>>(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
}, t => [primaryKey({ columns: [t.workflowId, t.version] })])

export const runs = pgTable('runs', {
  id: text('id').primaryKey(),
  workflowId: text('workflow_id').references(() => workflows.id, { onDelete: 'cascade' }),
  workflowVersion: integer('workflow_version'),
  /** The definition as run, so a run can be resumed and inspected whatever happens to the workflow. */
  definition: json('definition').notNull().$type<Record<string, unknown>>(),
  input: json('input').$type<unknown>(),
  options: json('options').$type<Record<string, unknown>>(),
  status: text('status').notNull(),
  verdict: text('verdict'),
  output: json('output').$type<unknown>(),
  error: json('error').$type<unknown>(),
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
  lastStepAtResume: bigint('last_step_at_resume', { mode: 'number' }),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  startedAt: bigint('started_at', { mode: 'number' }),
  finishedAt: bigint('finished_at', { mode: 'number' }),
  durationMs: doublePrecision('duration_ms'),
}, t => [
  index('runs_workflow_created').on(t.workflowId, t.createdAt), index('runs_status').on(t.status), index('runs_lease_owner').on(t.leaseOwner, t.status),
])

/**
 * One lease per process, not per run: its heartbeat renews this one row, and once it has expired
 * every unfinished run the process holds is free for another process to resume. A process id
 * alone cannot tell a crashed process from a live one.
 */
export const leaseOwners = pgTable('lease_owners', {
  owner: text('owner').primaryKey(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
})

export const stepRuns = pgTable('step_runs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  runId: text('run_id').notNull().references(() => runs.id, { onDelete: 'cascade' }),
  nodeId: text('node_id').notNull(),
  attempt: integer('attempt').notNull(),
  status: text('status').notNull(),
  input: json('input').$type<unknown>(),
  output: json('output').$type<unknown>(),
  branch: text('branch'),
  error: json('error').$type<unknown>(),
  reason: text('reason'),
  rerun: json('rerun').$type<{ target: string, reason: string }>(),
  usage: json('usage').$type<{ input_tokens: number, output_tokens: number }>(),
  cached: boolean('cached'),
  pinned: boolean('pinned'),
  startedAt: bigint('started_at', { mode: 'number' }),
  finishedAt: bigint('finished_at', { mode: 'number' }),
  durationMs: doublePrecision('duration_ms'),
}, t => [uniqueIndex('step_runs_run_node_attempt').on(t.runId, t.nodeId, t.attempt)])

/** The run's event log; its id is the SSE event id, so a client can resume from Last-Event-ID. */
export const runEvents = pgTable('run_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  runId: text('run_id').notNull().references(() => runs.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  nodeId: text('node_id'),
  attempt: integer('attempt'),
  data: json('data').notNull().$type<Record<string, unknown>>(),
  at: bigint('at', { mode: 'number' }).notNull(),
}, t => [index('run_events_run').on(t.runId, t.id)])

/** Bounded in entries: the entries used longest ago are evicted first (`lastUsedAt`, set on every hit). */
export const llmCache = pgTable('llm_cache', {
  key: text('key').primaryKey(),
  provider: text('provider').notNull(),
  model: text('model').notNull(),
  response: json('response').notNull().$type<Record<string, unknown>>(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  lastUsedAt: bigint('last_used_at', { mode: 'number' }).notNull().default(0),
}, t => [index('llm_cache_last_used').on(t.lastUsedAt)])

/** Small facts about this database, e.g. that the templates were loaded once. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: json('value').$type<unknown>(),
})

/** Experiments: test documents with answer keys and prompt variants (the variant-scoring rubric). */
export const experiments = pgTable('experiments', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  definition: json('definition').notNull().$type<Record<string, unknown>>(),
  currentBest: text('current_best').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
})

/** Every round is kept: its runs, its judgments (corrected ones included) and its report. */
export const experimentRounds = pgTable('experiment_rounds', {
  id: text('id').primaryKey(),
  experimentId: text('experiment_id').notNull().references(() => experiments.id, { onDelete: 'cascade' }),
  number: integer('number').notNull(),
  status: text('status').notNull(),
  /** The current best when the round started; the variants judged in it. */
  currentBest: text('current_best').notNull(),
  runs: json('runs').notNull().$type<Array<{ variant: string, document: string, run: number, run_id: string }>>(),
  judgments: json('judgments').notNull().$type<unknown[]>(),
  report: json('report').$type<Record<string, unknown>>(),
  error: json('error').$type<unknown>(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  finishedAt: bigint('finished_at', { mode: 'number' }),
}, t => [uniqueIndex('experiment_rounds_number').on(t.experimentId, t.number)])

/** Datasets: named lists of cases. Every import or edit is a new version; a dataset run records the version it ran on. */
export const datasets = pgTable('datasets', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  currentVersion: integer('current_version').notNull(),
  caseCount: integer('case_count').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
}, t => [uniqueIndex('datasets_name').on(t.name)])

export const datasetVersions = pgTable('dataset_versions', {
  datasetId: text('dataset_id').notNull().references(() => datasets.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  cases: json('cases').notNull().$type<unknown[]>(),
  caseCount: integer('case_count').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
}, t => [primaryKey({ columns: [t.datasetId, t.version] })])

/** A run of a workflow (or an evaluator alone) over every case of a dataset version. */
export const datasetRuns = pgTable('dataset_runs', {
  id: text('id').primaryKey(),
  datasetId: text('dataset_id').notNull().references(() => datasets.id, { onDelete: 'cascade' }),
  datasetVersion: integer('dataset_version').notNull(),
  /** `{ workflow_id, workflow_version }`, or `{ evaluator: <config> }`. */
  target: json('target').notNull().$type<Record<string, unknown>>(),
  /** concurrency, repeat, score_step, gates, baseline_run_id. */
  options: json('options').notNull().$type<Record<string, unknown>>(),
  status: text('status').notNull(),
  error: json('error').$type<unknown>(),
  report: json('report').$type<Record<string, unknown>>(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  finishedAt: bigint('finished_at', { mode: 'number' }),
}, t => [index('dataset_runs_dataset_created').on(t.datasetId, t.createdAt), index('dataset_runs_status').on(t.status)])

/**
 * One row per case and repeat, written before its run starts (with the run's id) and again when
 * the run ends: after a restart, a case with a result is never run again, and a case whose run
 * was under way is followed to that run's end rather than started anew.
 */
export const datasetRunCases = pgTable('dataset_run_cases', {
  datasetRunId: text('dataset_run_id').notNull().references(() => datasetRuns.id, { onDelete: 'cascade' }),
  caseId: text('case_id').notNull(),
  repeat: integer('repeat').notNull(),
  status: text('status').notNull(),
  runId: text('run_id'),
  result: json('result').$type<Record<string, unknown>>(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
}, t => [primaryKey({ columns: [t.datasetRunId, t.caseId, t.repeat] })])

/** Online scoring's rules (DESIGN.md, "Production traces: online scoring"). */
export const onlineRules = pgTable('online_rules', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull(),
  /** `{ workflow_id, step_id }` or `{ config }`. */
  evaluator: json('evaluator').notNull().$type<OnlineEvaluatorRef>(),
  filter: json('filter').notNull().$type<OnlineFilter>(),
  sampleRate: doublePrecision('sample_rate').notNull(),
  maxPerMinute: integer('max_per_minute'),
  maxCostUsdPerDay: doublePrecision('max_cost_usd_per_day'),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
})

/** GenAI spans received on /v1/traces: a span sent again is the same row. */
export const onlineSpans = pgTable('online_spans', {
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
  usage: json('usage').$type<{ input_tokens: number | null, output_tokens: number | null }>(),
  statusCode: integer('status_code').notNull(),
  startedAt: bigint('started_at', { mode: 'number' }).notNull(),
  endedAt: bigint('ended_at', { mode: 'number' }).notNull(),
  attributes: json('attributes').notNull().$type<Record<string, unknown>>(),
  receivedAt: bigint('received_at', { mode: 'number' }).notNull(),
}, t => [primaryKey({ columns: [t.traceId, t.spanId] }), index('online_spans_received').on(t.receivedAt)])

/** One decision per span and rule that saw it: filtered, sampled_out, queued, scored, failed or over_budget, with why. */
export const onlineDecisions = pgTable('online_decisions', {
  ruleId: text('rule_id').notNull().references(() => onlineRules.id, { onDelete: 'cascade' }),
  traceId: text('trace_id').notNull(),
  spanId: text('span_id').notNull(),
  status: text('status').notNull(),
  reason: text('reason'),
  score: doublePrecision('score'),
  verdict: text('verdict'),
  runId: text('run_id'),
  costUsd: doublePrecision('cost_usd'),
  decidedAt: bigint('decided_at', { mode: 'number' }).notNull(),
  /** When its scoring was claimed: max_per_minute counts the rule's claims of the last minute. */
  claimedAt: bigint('claimed_at', { mode: 'number' }),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
}, t => [
  primaryKey({ columns: [t.ruleId, t.traceId, t.spanId] }),
  foreignKey({ columns: [t.traceId, t.spanId], foreignColumns: [onlineSpans.traceId, onlineSpans.spanId] }).onDelete('cascade'),
  index('online_decisions_rule_decided').on(t.ruleId, t.decidedAt), index('online_decisions_status').on(t.status, t.decidedAt),
  index('online_decisions_rule_claimed').on(t.ruleId, t.claimedAt),
])

/** Human review's queues (DESIGN.md, "Human review: annotation queues"). */
export const reviewQueues = pgTable('review_queues', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  rubric: json('rubric').notNull().$type<ReviewRubric>(),
  instructions: text('instructions'),
  reviewersPerItem: integer('reviewers_per_item').notNull(),
  leaseMinutes: integer('lease_minutes').notNull(),
  showJudge: boolean('show_judge').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
})

/** What a queue's reviewers judge: a snapshot of a judged output, from a dataset run's case, a run or an online decision, added once. */
export const reviewItems = pgTable('review_items', {
  id: text('id').primaryKey(),
  queueId: text('queue_id').notNull().references(() => reviewQueues.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  source: json('source').notNull().$type<ReviewSource>(),
  sourceKey: text('source_key').notNull(),
  input: json('input').$type<unknown>(),
  output: json('output').$type<unknown>(),
  context: json('context').$type<unknown>(),
  judge: json('judge').$type<ReviewJudge>(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
}, t => [uniqueIndex('review_items_source').on(t.queueId, t.sourceKey), uniqueIndex('review_items_position').on(t.queueId, t.position)])

/** One label per reviewer and item: labelling again replaces it. */
export const reviewLabels = pgTable('review_labels', {
  itemId: text('item_id').notNull().references(() => reviewItems.id, { onDelete: 'cascade' }),
  queueId: text('queue_id').notNull(),
  reviewer: text('reviewer').notNull(),
  label: text('label').notNull(),
  score: doublePrecision('score'),
  comment: text('comment'),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
}, t => [primaryKey({ columns: [t.itemId, t.reviewer] }), index('review_labels_queue').on(t.queueId, t.reviewer)])

/** An item handed to a reviewer until a time, or skipped by them. */
export const reviewLeases = pgTable('review_leases', {
  itemId: text('item_id').notNull().references(() => reviewItems.id, { onDelete: 'cascade' }),
  queueId: text('queue_id').notNull(),
  reviewer: text('reviewer').notNull(),
  leasedUntil: bigint('leased_until', { mode: 'number' }).notNull(),
  skipped: boolean('skipped').notNull(),
}, t => [primaryKey({ columns: [t.itemId, t.reviewer] }), index('review_leases_queue').on(t.queueId, t.reviewer)])
