import { describe, expect, it } from 'vitest'
import { useAction } from '../../../app/composables/useAction'

/** A promise the test settles when it chooses, to look at the action while its request runs. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** An API refusal as $fetch throws it: the body's message, and its problems by field. */
const refusal = (message: string, problems: Array<{ path: string, message: string }> = []) =>
  Object.assign(new Error('[POST] 400'), { data: { message, data: { problems } } })

describe('an action: busy while its request runs, the API\'s refusal as its message', () => {
  it('is busy until the request settles, then answers what it returned', async () => {
    const { busy, message, run } = useAction()
    const answer = deferred<{ added: number }>()
    const running = run(() => answer.promise)
    expect(busy.value).toBe(true)
    expect(message.value).toBe('')
    answer.resolve({ added: 2 })
    await expect(running).resolves.toEqual({ added: 2 })
    expect(busy.value).toBe(false)
    expect(message.value).toBe('')
  })

  it('puts a refusal in the message, each problem by its field, and answers undefined', async () => {
    const { busy, message, run } = useAction()
    const answer = await run(() => Promise.reject(refusal('Invalid label', [{ path: 'score', message: 'must be from 0 to 1' }])))
    expect(answer).toBeUndefined()
    expect(message.value).toBe('score: must be from 0 to 1')
    expect(busy.value).toBe(false)
    await run(() => Promise.reject(refusal('The queue was not found')))
    expect(message.value).toBe('The queue was not found')
    await run(() => Promise.reject(new Error('Failed to fetch')))
    expect(message.value).toBe('Failed to fetch')
  })

  it('clears the last refusal, or a problem the caller put there, as the next request starts', async () => {
    const { message, run } = useAction()
    await run(() => Promise.reject(refusal('Not now')))
    const answer = deferred<void>()
    const running = run(() => answer.promise)
    expect(message.value).toBe('')
    answer.resolve()
    await running
    message.value = 'The evaluator config is not JSON'
    await run(async () => 'done')
    expect(message.value).toBe('')
  })

  it('keeps each action\'s state its own', async () => {
    const giveBack = useAction()
    const remove = useAction()
    const answer = deferred<void>()
    const running = giveBack.run(() => answer.promise)
    await remove.run(() => Promise.reject(refusal('Not yours to delete')))
    expect([giveBack.busy.value, giveBack.message.value]).toEqual([true, ''])
    expect([remove.busy.value, remove.message.value]).toEqual([false, 'Not yours to delete'])
    answer.resolve()
    await running
    expect(giveBack.busy.value).toBe(false)
  })
})
