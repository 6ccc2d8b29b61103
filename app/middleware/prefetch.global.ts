import { prefetch } from '~/utils/prefetch'

// The editor's data is on its way while the editor's code loads.
export default defineNuxtRouteMiddleware((to) => {
  if (import.meta.client && to.name === 'workflows-id') prefetch([`/api/workflows/${String(to.params.id)}`, '/api/steps', '/api/models'])
})
