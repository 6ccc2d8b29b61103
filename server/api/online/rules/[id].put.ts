import { checkRuleEvaluator, presentRule, ruleFields } from '~~/core/online/rules'
import { onlineRuleSchema } from '~~/engine/online/rule-schema'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readBodyWith, routeId } from '~~/server/utils/http'

/** Replaces an online rule's fields (pausing it is `enabled: false`); decisions taken stay as they were. */
export default defineEventHandler(async (event) => {
  const rule = await readBodyWith(event, onlineRuleSchema)
  const { store } = useJudgeflow()
  const id = routeId(event)
  await checkRuleEvaluator(store, rule)
  const row = await store.online.updateRule(id, ruleFields(rule))
  if (!row) notFound('online rule', id)
  return presentRule(row)
})
