import type { LabelView, ReviewItemView } from '~/utils/review'

/** An item the reviewer labelled on this page, with the label they gave: j / k go back to it to change it. */
interface Labelled { item: ReviewItemView, label: string, score: string, comment: string }

/**
 * A reviewer's turn on a queue: the item leased to them (POST …/next), the items they labelled since
 * the page opened (the API lists no reviewer's past labels, so earlier ones are not offered), the
 * label they are giving, and the moves between them. `changed` runs after each label or skip.
 */
export function useReviewSession(queueId: string, reviewer: Readonly<Ref<string>>, changed: () => void) {
  const current = ref<ReviewItemView | null>(null)
  const leasedUntil = ref<string | null>(null)
  const history = ref<Labelled[]>([])
  /** Which item is shown: one of `history`, or at its end the leased one. */
  const cursor = ref(0)
  const label = ref('')
  const score = ref('')
  const comment = ref('')
  const loaded = ref(false)
  /** One request at a time — the lease, a label, a skip — busy while it runs, the API's refusal as its message. */
  const { busy, message, run: act } = useAction()
  const said = ref('')

  const onLabelled = computed(() => cursor.value < history.value.length)
  const shown = computed(() => (onLabelled.value ? history.value[cursor.value]!.item : current.value))

  function fill(entry?: Labelled) {
    label.value = entry?.label ?? ''
    score.value = entry?.score ?? ''
    comment.value = entry?.comment ?? ''
  }

  /** The reviewer's next item, leased to them; none when every item has its labels or they passed it. */
  async function lease() {
    if (!reviewer.value) return
    await act(async () => {
      const answer = await $fetch<{ item: ReviewItemView | null, leased_until: string | null }>(`/api/queues/${queueId}/next`, { method: 'POST', body: { reviewer: reviewer.value } })
      current.value = answer.item
      leasedUntil.value = answer.leased_until
      cursor.value = history.value.length
      fill()
      loaded.value = true
    })
  }

  async function submit() {
    const item = shown.value
    if (!item || !label.value || busy.value) return
    const body = {
      item_id: item.id, reviewer: reviewer.value, label: label.value,
      score: score.value.trim() === '' ? null : Number(score.value), comment: comment.value.trim() === '' ? null : comment.value,
    }
    const saved = await act(() => $fetch<LabelView>(`/api/queues/${queueId}/labels`, { method: 'POST', body }))
    if (!saved) return
    const entry = { item, label: saved.label, score: score.value, comment: comment.value }
    said.value = `Item ${item.position} labelled ${saved.label}.`
    changed()
    if (onLabelled.value) {
      history.value[cursor.value] = entry
      move(1)
      return
    }
    history.value.push(entry)
    await lease()
  }

  async function skip() {
    const item = current.value
    if (!item || onLabelled.value || busy.value) return
    const done = await act(async () => {
      await $fetch(`/api/queues/${queueId}/skip`, { method: 'POST', body: { item_id: item.id, reviewer: reviewer.value } })
      return true
    })
    if (!done) return
    said.value = `Item ${item.position} skipped.`
    changed()
    await lease()
  }

  /** One item on (j) or back (k) among those labelled here, the leased one last. */
  function move(step: 1 | -1) {
    const to = Math.min(history.value.length, Math.max(0, cursor.value + step))
    if (to === cursor.value) return false
    cursor.value = to
    fill(history.value[to])
    return true
  }

  /** Another reviewer's turn: what this one labelled here is theirs, not the next one's. */
  async function restart() {
    history.value = []
    current.value = null
    loaded.value = false
    said.value = ''
    await lease()
  }

  return { current, leasedUntil, history, cursor, shown, onLabelled, label, score, comment, busy, loaded, message, said, lease, submit, skip, move, restart }
}
