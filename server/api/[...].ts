import { JudgeflowError } from '~~/engine'

/** An /api path no route serves is a 404 in JSON, never the app's HTML page. */
export default defineEventHandler((event) => {
  throw new JudgeflowError('NOT_FOUND', `No API route ${event.method} ${event.path.split('?')[0]}.`)
})
