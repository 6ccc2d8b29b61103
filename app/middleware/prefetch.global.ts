import { prefetch } from '~/utils/prefetch'

// The editor's data, and a dataset run's report, are on their way while the page's code loads.
export default defineNuxtRouteMiddleware((to) => {
  if (!import.meta.client) return
  if (to.name === 'workflows-id') prefetch([`/api/workflows/${String(to.params.id)}`, '/api/steps', '/api/models'])
  else if (to.name === 'dataset-runs-id') prefetch([`/api/dataset-runs/${String(to.params.id)}`])
})
