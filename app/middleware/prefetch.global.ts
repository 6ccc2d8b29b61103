import { earlyRequests } from '~/utils/early-requests'
import { prefetch } from '~/utils/prefetch'

// The editor's data, and a dataset run's report, are on their way while the page's code loads.
export default defineNuxtRouteMiddleware((to) => {
  if (import.meta.client) prefetch(earlyRequests(to.path))
})
