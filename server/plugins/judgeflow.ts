import { useJudgeflow } from '../utils/context'

/** Opens the database (applying migrations) at start and picks up runs a previous process left unfinished. */
export default defineNitroPlugin((nitroApp) => {
  const { runs, handle } = useJudgeflow()
  const { resumed, interrupted } = runs.resumeUnfinished()
  if (resumed.length || interrupted.length) console.info(`judgeflow: resumed ${resumed.length} run(s), marked ${interrupted.length} interrupted`)
  nitroApp.hooks.hook('close', async () => {
    await runs.drain()
    handle.close()
  })
})
