import type { Ref } from 'vue'
import type { Judgment } from '~~/engine/experiments/schema'
import { isOpenRoundStatus } from '~~/engine/experiments/round-statuses'
import type { ExperimentView, StartedRound } from '~/utils/api'
import type { ExperimentTarget } from '~/utils/experiment-template'
import { parseTypedJson } from '~~/engine/text/safe-json'

const errorOf = (e: unknown) => (e as { data?: { message?: string } }).data?.message ?? (e as Error).message

/**
 * What the experiment page asks of the API: rounds started and followed, a variant adopted or
 * added, judgments corrected. `message` says how the last one went.
 */
export function useExperimentActions(id: Ref<string>, experiment: Ref<ExperimentView | undefined>, refresh: () => Promise<void>) {
  const message = ref('')
  /** The round shown; the latest when none was chosen. */
  const selected = ref<number | null>(null)
  const { progress, running, follow, followStarted } = useRoundProgress(id, async (number) => {
    selected.value = number
    await refresh()
  })
  onMounted(() => {
    const open = experiment.value?.rounds.find(r => isOpenRoundStatus(r.status))
    if (open) follow(open.number)
  })

  async function startRound() {
    message.value = ''
    try {
      const started = await $fetch<StartedRound>(`/api/experiments/${id.value}/rounds`, { method: 'POST' })
      followStarted(started.number)
    }
    catch (e) {
      message.value = errorOf(e)
    }
  }
  async function cancelRound() {
    const open = experiment.value?.rounds.at(-1)
    if (open) await $fetch(`/api/experiments/${id.value}/rounds/${open.number}/cancel`, { method: 'POST' }).catch(() => undefined)
  }
  async function adopt(variant: string) {
    await $fetch(`/api/experiments/${id.value}/adopt`, { method: 'POST', body: { variant } })
    message.value = `${variant} is now the current best: the next round compares the others with it.`
    await refresh()
  }
  /** Adds a variant whose config is JSON text; false when it was not added. */
  async function addVariant(variantId: string, configText: string): Promise<boolean> {
    try {
      const config = parseTypedJson(configText)
      const { id: _id, rounds: _rounds, ...definition } = experiment.value!
      await $fetch(`/api/experiments/${id.value}`, { method: 'PUT', body: { ...definition, variants: [...definition.variants, { id: variantId, config }] } })
      await refresh()
      return true
    }
    catch (e) {
      message.value = errorOf(e)
      return false
    }
  }
  /** Points the experiment at another workflow or step; the next round runs that one. */
  async function changeTarget(target: ExperimentTarget) {
    try {
      const { id: _id, rounds: _rounds, ...definition } = experiment.value!
      await $fetch(`/api/experiments/${id.value}`, { method: 'PUT', body: { ...definition, target: { ...target } } })
      message.value = `The target is now step ${target.node} of the chosen workflow.`
      await refresh()
    }
    catch (e) {
      message.value = errorOf(e)
    }
  }
  async function saveCorrections(round: number, judgments: Judgment[]) {
    try {
      await $fetch(`/api/experiments/${id.value}/rounds/${round}/judgments`, { method: 'PUT', body: { judgments } })
      message.value = 'Corrections saved; the report is recomputed.'
      await refresh()
    }
    catch (e) {
      message.value = errorOf(e)
    }
  }

  return { message, selected, progress, running, startRound, cancelRound, adopt, addVariant, changeTarget, saveCorrections }
}
