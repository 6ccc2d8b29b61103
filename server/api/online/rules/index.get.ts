import { presentRule } from '~~/core/online/rules'
import { useJudgeflow } from '~~/server/utils/context'

/** The online rules, the last changed first. */
export default defineEventHandler(async () => {
  const rows = await useJudgeflow().store.online.listRules()
  return rows.map(presentRule)
})
