import { finalRunStatuses } from '../engine'
import { finalRoundStatusList } from '../engine/experiments/round-statuses'
import type { RunService } from './runs/run-service'
import type { Store } from './store'

export interface RoundMessage {
  event: 'progress' | 'round.finished'
  /** The progress as JSON: `{ number, status, total, done, judged, runs }`. */
  data: string
}

/** Hears each change, or `null` once when the round no longer exists (its experiment was deleted). */
export type RoundSubscriber = (message: RoundMessage | null) => void

/** The statuses a round ends in: it changes no more once it has one. */
export const finalRoundStatuses: ReadonlySet<string> = new Set(finalRoundStatusList)
/** Also refreshed this often, for what no event of this process tells: runs another process took over. */
const SAFETY_REFRESH_MS = 5_000

interface ProgressDeps {
  store: Store
  runs: RunService
}

/**
 * One round's progress, shared by all its followers in this process: computed once per change
 * (two queries, whatever the number of followers) and pushed to each of them. Changes are the
 * round's runs starting and finishing (the run service's events) and the round's own updates
 * (`RoundFollowers.changed`); a slow safety refresh covers the rest. It lives while someone follows.
 */
class RoundProgress {
  private readonly subscribers = new Set<RoundSubscriber>()
  private readonly runSubscriptions = new Map<string, () => void>()
  private readonly timer: NodeJS.Timeout
  private latest: RoundMessage | undefined
  private scheduled = false
  /** The refresh under way, and whether another was asked for meanwhile (it reads again after). */
  private refreshing = false
  private stale = false
  private closed = false

  constructor(
    private readonly deps: ProgressDeps,
    private readonly experimentId: string,
    private readonly number: number,
    private readonly onClose: () => void,
  ) {
    this.timer = setInterval(() => this.refresh(), SAFETY_REFRESH_MS)
    this.timer.unref()
  }

  /** Adds a follower, who hears the current progress at once, then each change. */
  add(subscriber: RoundSubscriber): () => void {
    this.subscribers.add(subscriber)
    if (this.latest) subscriber(this.latest)
    // A refresh under way tells every follower, this one included.
    else if (!this.refreshing) this.refresh()
    return () => {
      this.subscribers.delete(subscriber)
      if (!this.subscribers.size) this.close()
    }
  }

  /** A refresh soon: the changes of one moment (several runs finishing together) make one. */
  schedule(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.refresh()
    })
  }

  /** One refresh at a time: one asked for while another reads runs right after it. */
  private refresh(): void {
    if (this.closed) return
    if (this.refreshing) {
      this.stale = true
      return
    }
    this.refreshing = true
    this.read()
      .catch(error => console.error(`judgeflow: the progress of round ${this.number} of experiment ${this.experimentId} could not be read:`, error))
      .finally(() => {
        this.refreshing = false
        if (!this.stale) return
        this.stale = false
        this.refresh()
      })
  }

  private async read(): Promise<void> {
    const { store } = this.deps
    const round = await store.experiments.round(this.experimentId, this.number)
    if (this.closed) return
    if (!round) {
      for (const subscriber of [...this.subscribers]) subscriber(null)
      return this.close()
    }
    const ids = round.runs.map(r => r.run_id)
    this.followRuns(ids)
    const statuses = await store.runs.statuses(ids)
    if (this.closed) return
    const runs = round.runs.map(r => ({ ...r, status: statuses.get(r.run_id) ?? 'unknown' }))
    const done = runs.filter(r => finalRunStatuses.has(r.status)).length
    const progress = { number: this.number, status: round.status, total: runs.length, done, judged: round.judgments.length, runs }
    const message: RoundMessage = { event: finalRoundStatuses.has(round.status) ? 'round.finished' : 'progress', data: JSON.stringify(progress) }
    if (message.data === this.latest?.data) return
    this.latest = message
    for (const subscriber of [...this.subscribers]) subscriber(message)
    if (message.event === 'round.finished') this.close()
  }

  private followRuns(ids: string[]): void {
    const { runs } = this.deps
    for (const id of ids) {
      if (this.runSubscriptions.has(id)) continue
      this.runSubscriptions.set(id, runs.subscribe(id, (row) => {
        if (row.type === 'run.started' || row.type === 'run.finished') this.schedule()
      }))
    }
  }

  private close(): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.timer)
    for (const unsubscribe of this.runSubscriptions.values()) unsubscribe()
    this.runSubscriptions.clear()
    this.subscribers.clear()
    this.onClose()
  }
}

/** The progress of rounds, for whoever follows them in this process (one source per round followed). */
export class RoundFollowers {
  private readonly sources = new Map<string, RoundProgress>()

  constructor(private readonly deps: ProgressDeps) {}

  /** Follows a round's progress: `subscriber` hears it now and at each change; call the result to stop. */
  follow(experimentId: string, number: number, subscriber: RoundSubscriber): () => void {
    const key = `${experimentId}#${number}`
    let source = this.sources.get(key)
    if (!source) {
      const created = new RoundProgress(this.deps, experimentId, number, () => {
        if (this.sources.get(key) === created) this.sources.delete(key)
      })
      this.sources.set(key, source = created)
    }
    return source.add(subscriber)
  }

  /** Tells the round's followers, if any, that the round itself changed (status, runs, judgments). */
  changed(experimentId: string, number: number): void {
    this.sources.get(`${experimentId}#${number}`)?.schedule()
  }
}
