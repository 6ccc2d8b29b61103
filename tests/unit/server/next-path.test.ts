import { describe, expect, it } from 'vitest'
import { safeNextPath } from '../../../shared/utils/next-path'

describe('safeNextPath: where to go after signing in', () => {
  it('keeps a path of this origin, with its query', () => {
    expect(safeNextPath('/experiments')).toBe('/experiments')
    expect(safeNextPath('/workflows/abc?version=2#x')).toBe('/workflows/abc?version=2#x')
    expect(safeNextPath('/')).toBe('/')
  })

  it('sends anything that could reach another origin to /', () => {
    for (const next of [
      '/\\127.0.0.1:3971/experiments', // what `?next=/%5C127.0.0.1:3971/experiments` decodes to
      '/\t/127.0.0.1:3971/experiments', // `?next=/%09/…`: browsers drop the tab, leaving `//`
      '/\n/evil.example', '/\r/evil.example', '/ /evil.example', '/\u00a0/evil.example', '/\u2028/evil.example',
      '//evil.example', '///evil.example', '/%2F/evil.example', '/%5Cevil.example', '/%09/evil.example',
      'https://evil.example', 'evil.example', 'javascript:alert(1)', '', '\\\\evil.example', '/x\u0000', '/x\u007f',
      '/%E0%A4%A', // does not decode
    ]) expect(safeNextPath(next), JSON.stringify(next)).toBe('/')
  })

  it('takes only strings', () => {
    expect(safeNextPath(undefined)).toBe('/')
    expect(safeNextPath(['/a', '/b'])).toBe('/')
    expect(safeNextPath(null)).toBe('/')
  })
})
