import { checkRuleEvaluator, presentRule, ruleFields } from '~~/core/online/rules'
import { onlineRuleSchema } from '~~/engine/online/rule-schema'
import { useJudgeflow } from '~~/server/utils/context'
import { readBodyWith } from '~~/server/utils/http'

/** Creates an online rule (DESIGN.md's fields, without `id`); answers it with its id. */
export default defineEventHandler(async (event) => {
  const rule = await readBodyWith(event, onlineRuleSchema)
  const { store } = useJudgeflow()
  await checkRuleEvaluator(store, rule)
  const row = await store.online.createRule(ruleFields(rule))
  setResponseStatus(event, 201)
  return presentRule(row)
})
