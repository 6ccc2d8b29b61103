/** An /api path no route serves is a 404 in JSON, never the app's HTML page. */
export default defineEventHandler((event) => {
  throw createError({ statusCode: 404, statusMessage: 'Not Found', message: `No API route ${event.method} ${event.path.split('?')[0]}.` })
})
