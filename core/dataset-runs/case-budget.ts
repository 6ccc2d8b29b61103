import type { CostEstimate } from '../../engine/datasets'

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/**
 * A dataset run's budget (`max_cost_usd`): what its case runs have cost so far (resumed runs
 * included), and the estimated cost held for each case run under way until it ends, so that no
 * case starts that what is left cannot pay for. Without a known estimate, one runs at a time.
 * Without a budget, every case run is admitted at once.
 */
export class CaseBudget {
  private spent: number
  private unpriced: string | null = null
  private readonly perCase: number | null
  private readonly held = { runs: 0, usd: 0 }
  private readonly waiting: Array<() => void> = []

  constructor(private readonly budget: number | undefined, estimate: CostEstimate | undefined, spentBefore: number) {
    this.spent = spentBefore
    this.perCase = estimate?.estimate_usd == null || !estimate.case_runs ? null : estimate.estimate_usd / estimate.case_runs
  }

  /** Whether a case run admitted holds part of the budget (to `release` when it ends). */
  get holds(): boolean {
    return this.budget !== undefined
  }

  /** Why no case run may start any more (said as the case's result), or null. */
  private overBudget(): string | null {
    const budget = this.budget
    if (budget === undefined) return null
    if (this.unpriced) return `not run: the cost of run ${this.unpriced} is not known (a model without a price), so the budget of $${budget} cannot be held`
    return this.spent >= budget ? `not run: the budget of $${budget} was reached ($${round6(this.spent)} spent)` : null
  }

  /** Waits until the budget left can pay for one more case run and holds its estimated cost; or says why it cannot run. */
  async admit(abort: AbortSignal): Promise<string | null> {
    for (;;) {
      const stop = this.overBudget()
      if (stop || this.budget === undefined) return stop
      if (abort.aborted) return 'not run: the dataset run was cancelled'
      const fits = this.perCase === null ? this.held.runs === 0 : this.spent + this.held.usd + this.perCase <= this.budget + 1e-12
      if (fits) {
        this.held.runs++
        this.held.usd += this.perCase ?? 0
        return null
      }
      if (this.held.runs === 0) return `not run: the budget left ($${round6(this.budget - this.spent)} of $${this.budget}) cannot pay for another case run at the estimated $${round6(this.perCase!)} each`
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve)
        abort.addEventListener('abort', () => resolve(), { once: true })
      })
    }
  }

  /** A run's cost, counted as soon as it ends (null: not known): the next case is checked against it. */
  charge(runId: string, cost: number | null): void {
    if (cost === null) this.unpriced ??= runId
    else this.spent += cost
  }

  /** An admitted case run ended: its estimated cost is no longer held (what it cost was charged). */
  release(): void {
    this.held.runs--
    this.held.usd -= this.perCase ?? 0
    for (const wake of this.waiting.splice(0)) wake()
  }
}
