import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray } from 'drizzle-orm'
import type { ChatResponse, ResponseCache } from '../engine/providers/types'
import type { ExperimentRepository, SettingsRepository } from '../core/store'
import type { ExperimentRoundRow, ExperimentRow } from '../core/rows'
import { openRoundStatuses } from '../engine/experiments/round-statuses'
import { allRows, firstRow, inTransaction, rowsOf, runOf, type Perform, type Program } from './statement-program'

/**
 * Experiments, settings and the response cache (and workflows: workflows.ts, datasets: datasets.ts): one implementation over both dialects (see
 * statement-program.ts). `forUpdate` locks the row a transaction reads before it writes on
 * PostgreSQL; on SQLite the transaction holds the write lock from its start.
 */
export interface CatalogTables {
  workflows: any
  workflowVersions: any
  experiments: any
  experimentRounds: any
  appSettings: any
  llmCache: any
  datasets: any
  datasetVersions: any
  datasetRuns: any
  datasetRunCases: any
  forUpdate: (query: any) => any
  /** A lock on `key` held until the transaction ends (PostgreSQL's advisory lock); none on SQLite, whose transaction holds the write lock. */
  lockKey?: (tx: any, key: string) => unknown
}

export function experimentRepository(t: CatalogTables, perform: Perform): ExperimentRepository {
  const { experiments, experimentRounds } = t
  const roundWhere = (experimentId: string, number: number) => and(eq(experimentRounds.experimentId, experimentId), eq(experimentRounds.number, number))
  return {
    list: () => perform(db => allRows<ExperimentRow>(db.select().from(experiments).orderBy(desc(experiments.updatedAt)))),
    get: id => perform(db => firstRow<ExperimentRow>(db.select().from(experiments).where(eq(experiments.id, id)))),
    create: definition => perform(function* (db) {
      const now = Date.now()
      const row = { id: randomUUID(), name: definition.name, definition, currentBest: definition.current_best, createdAt: now, updatedAt: now }
      yield runOf(db.insert(experiments).values(row))
      return row
    }),
    update: (id, definition) => perform(db => firstRow<ExperimentRow>(db.update(experiments)
      .set({ name: definition.name, definition, currentBest: definition.current_best, updatedAt: Date.now() }).where(eq(experiments.id, id)).returning())),
    delete: id => perform(function* (db) {
      const deleted: unknown[] = yield rowsOf(db.delete(experiments).where(eq(experiments.id, id)).returning({ id: experiments.id }))
      return deleted.length > 0
    }),
    rounds: experimentId => perform(db => allRows<ExperimentRoundRow>(db.select().from(experimentRounds)
      .where(eq(experimentRounds.experimentId, experimentId)).orderBy(asc(experimentRounds.number)))),
    round: (experimentId, number) => perform(db => firstRow<ExperimentRoundRow>(db.select().from(experimentRounds).where(roundWhere(experimentId, number)))),
    roundExists: (experimentId, number) => perform(function* (db) {
      const found: unknown[] = yield rowsOf(db.select({ id: experimentRounds.id }).from(experimentRounds).where(roundWhere(experimentId, number)))
      return found.length > 0
    }),
    createRound: (experimentId, currentBest) => perform(function* () {
      return (yield inTransaction(tx => newRound(t, tx, experimentId, currentBest))) as ExperimentRoundRow
    }),
    updateRound: (id, patch) => perform(function* (db) {
      yield runOf(db.update(experimentRounds).set(patch).where(eq(experimentRounds.id, id)))
    }),
    openRounds: () => perform(db => allRows<ExperimentRoundRow>(db.select().from(experimentRounds)
      .where(inArray(experimentRounds.status, [...openRoundStatuses])))),
  }
}

/** A new round numbered after the last one: the rounds of one experiment are numbered one at a time (its row locked). */
function* newRound(t: CatalogTables, tx: any, experimentId: string, currentBest: string): Program<ExperimentRoundRow> {
  yield rowsOf(t.forUpdate(tx.select({ id: t.experiments.id }).from(t.experiments).where(eq(t.experiments.id, experimentId))))
  const [last]: Array<{ number: number }> = yield rowsOf(tx.select({ number: t.experimentRounds.number }).from(t.experimentRounds)
    .where(eq(t.experimentRounds.experimentId, experimentId)).orderBy(desc(t.experimentRounds.number)).limit(1))
  const row: ExperimentRoundRow = {
    id: randomUUID(), experimentId, number: (last?.number ?? 0) + 1, status: 'running', currentBest, runs: [], judgments: [],
    report: null, error: null, createdAt: Date.now(), finishedAt: null,
  }
  yield runOf(tx.insert(t.experimentRounds).values(row))
  return row
}

export function settingsRepository(t: CatalogTables, perform: Perform): SettingsRepository {
  return {
    get: <T>(key: string) => perform(db => settingOf<T>(t, db, key)),
    set: (key, value) => perform(db => storeSetting(t, db, key, value)),
  }
}

export function* settingOf<T>(t: CatalogTables, db: any, key: string): Program<T | null> {
  const row: { value: unknown } | null = yield* firstRow(db.select().from(t.appSettings).where(eq(t.appSettings.key, key)))
  return row ? (row.value as T) : null
}

export function* storeSetting(t: CatalogTables, db: any, key: string, value: unknown): Program<void> {
  yield runOf(db.insert(t.appSettings).values({ key, value }).onConflictDoUpdate({ target: t.appSettings.key, set: { value } }))
}

/** The LLM response cache, kept with the rest so it survives restarts; a hit marks the entry used (the prune evicts the least recently used). */
export function responseCache(t: CatalogTables, perform: Perform): ResponseCache {
  const { llmCache } = t
  return {
    get: key => perform(function* (db) {
      const row: { response: unknown } | null = yield* firstRow(db.update(llmCache).set({ lastUsedAt: Date.now() }).where(eq(llmCache.key, key))
        .returning({ response: llmCache.response }))
      return row ? (row.response as ChatResponse) : undefined
    }),
    set: (key, value, meta) => perform(function* (db) {
      const response = value as unknown as Record<string, unknown>
      const now = Date.now()
      yield runOf(db.insert(llmCache).values({ key, provider: meta.provider, model: meta.model, response, createdAt: now, lastUsedAt: now })
        .onConflictDoUpdate({ target: llmCache.key, set: { response, createdAt: now, lastUsedAt: now } }))
    }),
  }
}
