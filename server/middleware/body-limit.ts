/** Refuses request bodies over the limit (JUDGEFLOW_MAX_BODY_BYTES, 1 MiB by default) with 413. */
const limit = Number(process.env.JUDGEFLOW_MAX_BODY_BYTES) || 1024 * 1024

export default defineEventHandler(async (event) => {
  if (!['POST', 'PUT', 'PATCH'].includes(event.method)) return
  const tooLarge = () => createError({ statusCode: 413, statusMessage: 'Payload Too Large', message: `The request body is larger than ${limit} bytes.` })
  const declared = Number(getRequestHeader(event, 'content-length'))
  if (declared > limit) throw tooLarge()
  if (!Number.isFinite(declared)) {
    const raw = await readRawBody(event, false)
    if (raw && raw.length > limit) throw tooLarge()
  }
})
