import { createJudgeflow, type Judgeflow } from '../../core'
import { judgeflowConfig } from './config'
import { roundChanged } from './round-progress'

let app: Judgeflow | undefined

/** The server's app (see core/app.ts): its store, registries, providers, runs and rounds, created on first use. */
export function useJudgeflow(): Judgeflow {
  if (app) return app
  app = createJudgeflow(judgeflowConfig())
  app.rounds.onChange(round => roundChanged(round.experimentId, round.number))
  return app
}
