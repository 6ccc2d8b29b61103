import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../core'
import { MAX_USERS, parseUsers } from '../../../core/access-config'

/** JUDGEFLOW_USERS: the people who share the token, each signing in and labelling by name. */
describe('JUDGEFLOW_USERS', () => {
  it('is a comma-separated list of names, each trimmed; unset or blank, no list', () => {
    expect(loadConfig({ JUDGEFLOW_USERS: ' Ana Lima , bo,Zoë O\'Brien-Smith,j.r._2 ' }).server.users).toEqual(['Ana Lima', 'bo', 'Zoë O\'Brien-Smith', 'j.r._2'])
    expect(loadConfig({ JUDGEFLOW_USERS: 'Ana' }).server.users).toEqual(['Ana'])
    expect(loadConfig({}).server.users).toEqual([])
    expect(loadConfig({ JUDGEFLOW_USERS: '  ' }).server.users).toEqual([])
    // The same name typed in two Unicode forms is one name, kept composed.
    expect(parseUsers('Zoe\u0308')).toEqual(['Zoë'])
  })

  it('refuses an empty name, naming the variable and which name', () => {
    for (const [raw, which] of [['ana,,bo', 'name 2 of 3'], ['ana,', 'name 2 of 2'], [',', 'name 1 of 2']] as const) {
      expect(() => loadConfig({ JUDGEFLOW_USERS: raw })).toThrow(expect.objectContaining({
        code: 'INVALID_CONFIG', details: { variable: 'JUDGEFLOW_USERS' },
        message: `JUDGEFLOW_USERS has an empty name (${which}): list people's names separated by commas, such as "Ana Lima,Bo"; unset it to let reviewers type their name.`,
      }))
    }
  })

  it('refuses a name given twice, in any case', () => {
    expect(() => loadConfig({ JUDGEFLOW_USERS: 'ana,bo,Ana' })).toThrow('JUDGEFLOW_USERS names the same person twice ("ana" and "Ana"; names are compared without case)')
    expect(() => loadConfig({ JUDGEFLOW_USERS: 'bo, bo' })).toThrow('JUDGEFLOW_USERS names the same person twice ("bo" and "bo"')
  })

  it('refuses characters outside letters, digits and . \' _ - and spaces between them', () => {
    for (const bad of ['ana<script>', 'bo;x', 'cy=1', 'dee"', ' -ed', '_fi', 'h\u0000i', 'ian\tj', 'ken\u200b', 'lu/x']) {
      const name = bad.trim()
      expect(() => parseUsers(`ana,${bad}`), JSON.stringify(bad)).toThrow(`JUDGEFLOW_USERS has the name "${name}", with a character other than letters, digits, and spaces, dots, apostrophes, hyphens or underscores between them`)
    }
  })

  it('refuses a name over 64 characters, and more than 200 names', () => {
    expect(parseUsers('a'.repeat(64))).toEqual(['a'.repeat(64)])
    expect(() => parseUsers(`ana,${'b'.repeat(65)}`)).toThrow('JUDGEFLOW_USERS has a name longer than 64 characters ("bbbbbbbbbbbbbbbbbbbb…")')
    const many = Array.from({ length: MAX_USERS + 1 }, (_, n) => `p${n}`).join(',')
    expect(() => parseUsers(many)).toThrow('JUDGEFLOW_USERS lists 201 names; at most 200 may share a server')
    expect(parseUsers(many.slice(0, many.lastIndexOf(',')))).toHaveLength(MAX_USERS)
  })

  it('leaves the token and session lifetime as they were', () => {
    expect(loadConfig({ JUDGEFLOW_TOKEN: 'x'.repeat(32), JUDGEFLOW_SESSION_TTL_HOURS: '2' }).server).toMatchObject({ token: 'x'.repeat(32), sessionTtlMs: 2 * 3_600_000, users: [] })
  })
})
