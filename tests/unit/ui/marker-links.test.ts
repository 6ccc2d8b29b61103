import { describe, expect, it } from 'vitest'
import { markerToShow, runValueHref, stepValueHref, type TruncatedValue } from '../../../engine'
import { presentEvent, presentRun } from '../../../server/utils/present'
import type { RunEventRow, RunRow, StepRunRow } from '../../../core'

const marker = (href?: unknown) => ({ truncated: true, size: 88_000, preview: '{"value":["All work', ...(href === undefined ? {} : { href }) })
const shown = (href?: string): TruncatedValue => ({ truncated: true, size: 88_000, preview: '{"value":["All work', ...(href === undefined ? {} : { href }) })

type PresentedWithSteps = { input: unknown, output: unknown, steps: Record<string, { history: Array<{ input: unknown, output: unknown }> }> }

const run = { id: 'c0ffee00-1111-4222-8333-444455556666', workflowId: null, workflowVersion: null, status: 'succeeded', verdict: 'pass', error: null, options: {}, createdAt: 1, startedAt: 1, finishedAt: 2, durationMs: 1 } as unknown as RunRow
const stepRow = (nodeId: string, attempt: number, input: unknown, output: unknown) => ({
  runId: run.id, nodeId, attempt, status: 'succeeded', input, output, branch: null, error: null, reason: null, rerun: null,
  usage: null, cached: null, pinned: null, startedAt: 1, finishedAt: 2, durationMs: 1,
}) as unknown as StepRunRow

describe('the link of a value too large to carry (StoredValue)', () => {
  it('links to the whole value where the API\'s answers point, for the run and for every step attempt', () => {
    const presented = presentRun({ ...run, input: marker(), output: marker() }, [stepRow('draft-1', 1, marker(), marker()), stepRow('draft-1', 2, 'small', marker())]) as PresentedWithSteps
    expect(markerToShow(presented.input)).toEqual(shown(`/api/runs/${run.id}/input`))
    expect(markerToShow(presented.output)).toEqual(shown(`/api/runs/${run.id}/output`))
    const [first, second] = presented.steps['draft-1']!.history
    expect([markerToShow(first!.input), markerToShow(first!.output), markerToShow(second!.input), markerToShow(second!.output)]).toEqual([
      shown(`/api/runs/${run.id}/steps/draft-1/1/input`), shown(`/api/runs/${run.id}/steps/draft-1/1/output`), null, shown(`/api/runs/${run.id}/steps/draft-1/2/output`),
    ])
    const event = presentEvent({ id: 7, runId: run.id, type: 'step.started', at: 1, data: { node_id: 'draft-1', attempt: 3, input: marker() } } as unknown as RunEventRow) as { input: unknown }
    expect(markerToShow(event.input)).toEqual(shown(`/api/runs/${run.id}/steps/draft-1/3/input`))
    // Ids as the API encodes them in its paths.
    for (const href of [runValueHref('run 1/ä?#', 'output'), stepValueHref('a.b', 'Step_2', 12, 'input')]) expect(markerToShow(marker(href))).toEqual(shown(href))
  })

  it('shows a marker whose href the API did not make (a run\'s input shaped like one) by its size and start, never as a link', () => {
    const chosen = [
      'https://evil.example/',
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)//api/runs/r/input',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/api/runs/r/input',
      'https://evil.example/api/runs/r/input',
      '/\\evil.example/api/runs/r/input',
      '/api/runs/r/input?next=https://evil.example/',
      '/api/runs/r/output#x',
      ' /api/runs/r/input',
      '/api/runs/r/input\n',
      '/api/runs/r/../../logout',
      '/api/runs/../input',
      '/api/runs/%2e%2e/steps/x/1/output',
      '/api/runs/r/steps/./1/output',
      '/api/runs/r/steps/x/0/output',
      '/api/runs/r/steps/x/1/definition',
      '/api/runs//input',
      '/api/runs/r%zz/input',
      '/api/logout',
      '',
      42,
      { toString: () => '/api/runs/r/input' },
    ]
    for (const href of chosen) expect(markerToShow(marker(href)), String(href)).toEqual(shown())
    expect(markerToShow(marker())).toEqual(shown())
  })

  it('sees no marker in anything else', () => {
    for (const value of [null, undefined, 'text', 12, [], { truncated: true, size: 1 }, { truncated: 'yes', size: 1, preview: '', href: '/api/runs/r/input' }]) {
      expect(markerToShow(value)).toBeNull()
    }
  })
})
