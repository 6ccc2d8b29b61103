import type { Judgeflow } from '../../core'
import { openJudgeflow } from '../../main'
import { judgeflowConfig } from './config'

let app: Judgeflow | undefined

/** The server's app (see core/app.ts): its store, registries, providers, runs and rounds, created on first use. */
export function useJudgeflow(): Judgeflow {
  if (app) return app
  app = openJudgeflow(judgeflowConfig())
  return app
}
