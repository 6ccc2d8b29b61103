import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ChatResponse, ResponseCache } from '../../engine/providers/types'
import type { ExperimentRepository, SettingsRepository, WorkflowRepository } from '../../core/store'
import type { ExperimentRoundRow } from '../repositories/experiments'
import { versionConflict } from '../repositories/workflows'
import { prepared } from '../prepared'
import { openRoundStatuses } from '../../engine/experiments/round-statuses'
import type { PgDb } from './client'
import { appSettings, experimentRounds, experiments, llmCache, workflows, workflowVersions } from './schema'

type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0]
type Definition = Parameters<WorkflowRepository['create']>[0]

/** Workflows, experiments, settings and the response cache on PostgreSQL: the SQLite repositories' behaviour, query for query. */
export function pgWorkflows(db: PgDb, ready: Promise<void>): WorkflowRepository {
  const create = async (tx: Tx | PgDb, definition: Definition) => {
    const now = Date.now()
    const row = { id: randomUUID(), name: definition.name, description: definition.description ?? null, currentVersion: 1, createdAt: now, updatedAt: now }
    await tx.insert(workflows).values(row)
    await tx.insert(workflowVersions).values({ workflowId: row.id, version: 1, definition, createdAt: now })
    return { ...row, version: 1, definition }
  }
  /** The workflow with the version asked for, or its current one (version null). */
  const prepareGet = () => db.select({ row: workflows, version: workflowVersions.version, definition: workflowVersions.definition }).from(workflows)
    .innerJoin(workflowVersions, and(
      eq(workflowVersions.workflowId, workflows.id),
      eq(workflowVersions.version, sql`coalesce(${sql.placeholder('version')}::integer, ${workflows.currentVersion})`),
    ))
    .where(eq(workflows.id, sql.placeholder('id')))
    .prepare('judgeflow_workflow')
  return {
    async list() {
      await ready
      return db.select().from(workflows).orderBy(desc(workflows.updatedAt))
    },
    async get(id, version) {
      await ready
      // One round trip of a statement built and prepared once (each run's start reads its workflow).
      const [found] = await prepared(db, 'pg workflow', prepareGet).execute({ id, version: version ?? null })
      if (!found) return null
      const definition = found.definition as Definition
      return { ...found.row, name: definition.name, description: definition.description ?? null, version: found.version, definition }
    },
    async create(definition) {
      await ready
      return db.transaction(tx => create(tx, definition))
    },
    async update(id, definition, options = {}) {
      await ready
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(workflows).where(eq(workflows.id, id)).for('update')
        if (!row) return null
        if (options.baseVersions && !options.baseVersions.includes(row.currentVersion)) throw versionConflict(row.currentVersion, options.baseVersions)
        const now = Date.now()
        const version = row.currentVersion + 1
        await tx.insert(workflowVersions).values({ workflowId: id, version, definition, createdAt: now })
        await tx.update(workflows).set({ name: definition.name, description: definition.description ?? null, currentVersion: version, updatedAt: now })
          .where(eq(workflows.id, id))
        return { ...row, name: definition.name, description: definition.description ?? null, currentVersion: version, updatedAt: now, version, definition }
      })
    },
    async delete(id) {
      await ready
      return (await db.delete(workflows).where(eq(workflows.id, id)).returning({ id: workflows.id })).length > 0
    },
    async seed(marker, definitions) {
      await ready
      return db.transaction(async (tx) => {
        // Processes starting together seed once: the first takes the lock, the others then see the marker.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${marker}))`)
        const [set] = await tx.select().from(appSettings).where(eq(appSettings.key, marker))
        if (set?.value) return 0
        for (const definition of definitions) await create(tx, definition)
        await tx.insert(appSettings).values({ key: marker, value: true }).onConflictDoUpdate({ target: appSettings.key, set: { value: true } })
        return definitions.length
      })
    },
  }
}

export function pgExperiments(db: PgDb, ready: Promise<void>): ExperimentRepository {
  const get = async (id: string) => (await db.select().from(experiments).where(eq(experiments.id, id)))[0] ?? null
  const roundWhere = (experimentId: string, number: number) => and(eq(experimentRounds.experimentId, experimentId), eq(experimentRounds.number, number))
  return {
    async list() {
      await ready
      return db.select().from(experiments).orderBy(desc(experiments.updatedAt))
    },
    get: async id => (await ready, get(id)),
    async create(definition) {
      await ready
      const now = Date.now()
      const row = { id: randomUUID(), name: definition.name, definition, currentBest: definition.current_best, createdAt: now, updatedAt: now }
      await db.insert(experiments).values(row)
      return row
    },
    async update(id, definition) {
      await ready
      const [row] = await db.update(experiments).set({ name: definition.name, definition, currentBest: definition.current_best, updatedAt: Date.now() })
        .where(eq(experiments.id, id)).returning()
      return row ?? null
    },
    async delete(id) {
      await ready
      return (await db.delete(experiments).where(eq(experiments.id, id)).returning({ id: experiments.id })).length > 0
    },
    async rounds(experimentId) {
      await ready
      return db.select().from(experimentRounds).where(eq(experimentRounds.experimentId, experimentId)).orderBy(asc(experimentRounds.number))
    },
    async round(experimentId, number) {
      await ready
      return (await db.select().from(experimentRounds).where(roundWhere(experimentId, number)))[0] ?? null
    },
    async roundExists(experimentId, number) {
      await ready
      return (await db.select({ id: experimentRounds.id }).from(experimentRounds).where(roundWhere(experimentId, number))).length > 0
    },
    async createRound(experimentId, currentBest) {
      await ready
      return db.transaction(async (tx) => {
        // Rounds of one experiment are numbered one at a time.
        await tx.select({ id: experiments.id }).from(experiments).where(eq(experiments.id, experimentId)).for('update')
        const [last] = await tx.select({ number: experimentRounds.number }).from(experimentRounds).where(eq(experimentRounds.experimentId, experimentId))
          .orderBy(desc(experimentRounds.number)).limit(1)
        const row: ExperimentRoundRow = {
          id: randomUUID(), experimentId, number: (last?.number ?? 0) + 1, status: 'running', currentBest, runs: [], judgments: [],
          report: null, error: null, createdAt: Date.now(), finishedAt: null,
        }
        await tx.insert(experimentRounds).values(row)
        return row
      })
    },
    async updateRound(id, patch) {
      await ready
      await db.update(experimentRounds).set(patch).where(eq(experimentRounds.id, id))
    },
    async openRounds() {
      await ready
      return db.select().from(experimentRounds).where(inArray(experimentRounds.status, [...openRoundStatuses]))
    },
  }
}

export function pgSettings(db: PgDb, ready: Promise<void>): SettingsRepository {
  return {
    async get<T>(key: string) {
      await ready
      const [row] = await db.select().from(appSettings).where(eq(appSettings.key, key))
      return row ? (row.value as T) : null
    },
    async set(key, value) {
      await ready
      await db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } })
    },
  }
}

export function pgResponseCache(db: PgDb, ready: Promise<void>): ResponseCache {
  return {
    async get(key) {
      await ready
      const [row] = await db.update(llmCache).set({ lastUsedAt: Date.now() }).where(eq(llmCache.key, key)).returning({ response: llmCache.response })
      return row ? (row.response as unknown as ChatResponse) : undefined
    },
    async set(key, value, meta) {
      await ready
      const response = value as unknown as Record<string, unknown>
      const now = Date.now()
      await db.insert(llmCache).values({ key, provider: meta.provider, model: meta.model, response, createdAt: now, lastUsedAt: now })
        .onConflictDoUpdate({ target: llmCache.key, set: { response, createdAt: now, lastUsedAt: now } })
    },
  }
}
