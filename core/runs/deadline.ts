/** Waits for `work`, or `ms` at most. */
export async function withDeadline(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => { timer = setTimeout(resolve, ms) })])
  clearTimeout(timer)
}
