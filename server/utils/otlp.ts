import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import type { H3Event } from 'h3'
import { JudgeflowError } from '~~/engine/errors'
import { readOtlpTraces, type OtlpRead } from '~~/engine/online/otlp'
import { readJson } from '~~/engine/text/safe-json'
import type { OtlpConfig } from '~~/core/online-config'
import { clientAddress } from './clients'
import { judgeflowConfig } from './config'
import { SpanRate } from './span-rate'

const gunzipWithin = promisify(gunzip) as (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>

let rate: SpanRate | undefined

/** Refuses the request with 429 and Retry-After when the client has sent its spans for now (`spans`: the request's, once read). */
export function assertSpanRate(event: H3Event, spans?: number): void {
  const { otlp } = judgeflowConfig()
  rate ??= new SpanRate({ perSecond: otlp.spansPerSecond, largest: otlp.maxSpans })
  const waitMs = spans === undefined ? rate.waitBeforeAny(clientAddress(event)) : rate.take(clientAddress(event), spans)
  if (!waitMs) return
  const seconds = Math.max(1, Math.ceil(waitMs / 1000))
  throw new JudgeflowError('TOO_MANY_SPANS', `Too many spans from your address: at most ${otlp.spansPerSecond} a second (JUDGEFLOW_OTLP_SPANS_PER_SECOND); send again in ${seconds} s.`, {
    details: { retry_after_s: seconds },
  })
}

/**
 * The export request's spans: OTLP/HTTP in JSON (`application/json`), gzipped or not, within
 * JUDGEFLOW_OTLP_MAX_BODY_BYTES once decompressed; the spans that break a limit are rejected alone.
 */
export async function readExportRequest(event: H3Event, otlp: OtlpConfig): Promise<OtlpRead> {
  const type = (getRequestHeader(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') {
    const protobuf = type === 'application/x-protobuf' || type === 'application/protobuf'
    throw new JudgeflowError('UNSUPPORTED_MEDIA_TYPE', `${protobuf ? 'OTLP in protobuf is not taken here' : `A body of type "${type || 'none'}" is not an OTLP export request`}: `
      + 'judgeflow takes OTLP/HTTP in JSON (Content-Type: application/json). Set the exporter\'s protocol to http/json (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).')
  }
  const raw = (await readRawBody(event, false)) ?? Buffer.alloc(0)
  const text = (await decoded(Buffer.from(raw), getRequestHeader(event, 'content-encoding'), otlp.maxBodyBytes)).toString('utf8')
  const json = readJson(text || '{}', judgeflowConfig().maxJsonDepth)
  if (!json.ok) throw new JudgeflowError('INVALID_BODY', `The body is not an OTLP export request in JSON: it ${json.reason}.`)
  try {
    return readOtlpTraces(json.value, otlp)
  }
  catch (error) {
    if (error instanceof TypeError) throw new JudgeflowError('INVALID_BODY', `The body is not an OTLP export request: ${error.message}.`)
    throw error
  }
}

async function decoded(body: Buffer, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding === 'identity' || coding === '') return body
  if (coding !== 'gzip') throw new JudgeflowError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding "${coding}" is not taken: send the body as it is, or gzipped (Content-Encoding: gzip).`)
  try {
    return await gunzipWithin(body, { maxOutputLength: maxBytes })
  }
  catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new JudgeflowError('BODY_TOO_LARGE', `The request body is larger than ${maxBytes} bytes once gunzipped (JUDGEFLOW_OTLP_MAX_BODY_BYTES).`)
    }
    throw new JudgeflowError('INVALID_BODY', 'The body is not valid gzip (Content-Encoding: gzip).')
  }
}

/** OTLP's answer: `{}` when every span was taken, else `partialSuccess` with how many were rejected and why. */
export function exportAnswer(read: OtlpRead): { partialSuccess?: { rejectedSpans: string, errorMessage: string } } {
  if (!read.rejected.count) return {}
  return { partialSuccess: { rejectedSpans: String(read.rejected.count), errorMessage: `Rejected: ${read.rejected.reasons.join('; ')}.` } }
}
