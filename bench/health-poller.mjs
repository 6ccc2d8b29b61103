// Asks `url` for an answer every 20 ms, from its own process so the figures are the server's alone,
// until SIGTERM; then prints each answer's time in ms as one line of JSON.
const url = process.argv[2]
const times = []
let stopping = false
process.on('SIGTERM', () => {
  stopping = true
})
while (!stopping) {
  const t0 = performance.now()
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    await response.text()
    times.push(response.ok ? performance.now() - t0 : 5000)
  }
  catch {
    times.push(5000)
  }
  await new Promise(resolve => setTimeout(resolve, 20))
}
console.log(JSON.stringify(times))
