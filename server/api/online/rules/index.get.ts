import { listRulesCounted } from '~~/core/online/rules'
import { useJudgeflow } from '~~/server/utils/context'

/** The online rules, the last changed first, each with its decisions of the last 24 hours by status. */
export default defineEventHandler(() => listRulesCounted(useJudgeflow().store))
