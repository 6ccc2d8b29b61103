import type { ModelList } from '~/utils/api'
import type { ServerJudges } from '~/utils/judge-help'

/**
 * The server's default judge and which provider keys it has, from the model list the editor
 * loaded (GET /api/models, under the key `models`); nothing is asked again.
 */
export function useServerJudges() {
  const { data } = useNuxtData<Partial<ModelList>>('models')
  return computed<ServerJudges>(() => ({ defaultJudge: data.value?.default_judge, keys: data.value?.providers ?? {} }))
}
