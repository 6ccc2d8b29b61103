import { useIntervalFn } from '@vueuse/core'
import type { Ref } from 'vue'
import type { OnlineDecision, OnlineRuleView } from '~/utils/online'

/** Scores read for the charts, and the most decisions the feed shows: the API's largest page. */
export const COUNTED = 500
/** Decisions the feed shows at first, and more each time older ones are asked for. */
export const FEED_STEP = 50
/** How often the feed asks again, in milliseconds. */
const POLL_MS = 3_000

type Page = { decisions: OnlineDecision[], next: string | null }

/**
 * The Online page's data, asked for again every few seconds: the rules, the newest decisions (by
 * rule and status when chosen), each rule's decisions by status, and the scores for the charts.
 */
export function useOnlineFeed(rule: Ref<string>, status: Ref<string>) {
  const rules = ref<OnlineRuleView[]>([])
  const decisions = ref<OnlineDecision[]>([])
  const scores = ref<OnlineDecision[]>([])
  const counts = ref<Record<string, Partial<Record<string, number>>>>({})
  const loaded = ref(false)
  /** Decisions the feed shows (the newest first): FEED_STEP more each time older ones are asked for, up to COUNTED. */
  const shown = ref(FEED_STEP)
  /** Whether there are older decisions than those shown. */
  const more = ref(false)
  const error = ref('')
  let asking = false

  async function refresh() {
    if (asking) return
    asking = true
    try {
      const filter = { ...(rule.value ? { rule: rule.value } : {}) }
      const [ruleList, feed, scored] = await Promise.all([
        $fetch<OnlineRuleView[]>('/api/online/rules'),
        $fetch<Page>('/api/online/decisions', { query: { ...filter, ...(status.value ? { status: status.value } : {}), limit: shown.value } }),
        $fetch<Page>('/api/online/scores', { query: { ...filter, limit: COUNTED } }),
      ])
      rules.value = ruleList
      decisions.value = feed.decisions
      more.value = feed.next !== null
      scores.value = scored.decisions
      counts.value = Object.fromEntries(ruleList.map(r => [r.id, r.decisions_24h]))
      error.value = ''
    }
    catch (e) {
      error.value = `Could not read the online feed: ${(e as { data?: { message?: string } }).data?.message ?? (e as Error).message}`
    }
    finally {
      asking = false
      loaded.value = true
    }
  }

  const { pause, resume, isActive } = useIntervalFn(refresh, POLL_MS, { immediateCallback: true })
  watch([rule, status], () => {
    shown.value = FEED_STEP
    return refresh()
  })
  async function showOlder() {
    shown.value = Math.min(COUNTED, shown.value + FEED_STEP)
    await refresh()
  }
  return { rules, decisions, scores, counts, loaded, error, refresh, pause, resume, live: isActive, more, shown, showOlder }
}
