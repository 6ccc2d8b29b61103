import type { H3Event } from 'h3'

/** A workflow version as an entity tag: `"3"`. */
export const etagOf = (version: number) => `"${version}"`

/**
 * The versions an If-Match header accepts, compared strongly (RFC 9110): undefined when the header
 * is absent or `*` (no condition); weak or malformed tags match no version.
 */
export function ifMatchVersions(event: H3Event): number[] | undefined {
  const header = getRequestHeader(event, 'if-match')?.trim()
  if (!header) return undefined
  const tags = header.split(',').map(tag => tag.trim())
  if (tags.includes('*')) return undefined
  return tags.flatMap((tag) => {
    const match = /^"([1-9]\d{0,15})"$/.exec(tag)
    return match ? [Number(match[1])] : []
  })
}

/** The versions a write may apply on, given If-Match and base_version; undefined: any (the last write wins). */
export function acceptedVersions(ifMatch: number[] | undefined, baseVersion: number | undefined): number[] | undefined {
  if (baseVersion === undefined) return ifMatch
  return ifMatch ? ifMatch.filter(v => v === baseVersion) : [baseVersion]
}
