/** Imports a workflow file (the JSON that export returns) as a new workflow: the same contract as create. */
export { default } from './index.post'
