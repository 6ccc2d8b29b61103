import type { Judgeflow } from '~~/core'
import { openJudgeflow, usePostgres } from '~~/main'
import { postgres } from '~~/main/postgres'
import { judgeflowConfig } from './config'

let app: Judgeflow | undefined

/** The server's app (see core/app.ts): its store, registries, providers, runs and rounds, created on first use. */
export function useJudgeflow(): Judgeflow {
  if (app) return app
  // The server opens PostgreSQL when JUDGEFLOW_DATABASE_URL names one.
  usePostgres(postgres)
  app = openJudgeflow(judgeflowConfig())
  return app
}
