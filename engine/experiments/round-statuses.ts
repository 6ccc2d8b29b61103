/**
 * An experiment round's statuses. Browser-safe and free of zod: the experiments page reads them too.
 * Open: the round runs its targets (`running`) or its judge (`judging`) and can be cancelled, and
 * its runs are kept; final: it changes no more.
 */
export const openRoundStatuses = ['running', 'judging'] as const
export const finalRoundStatusList = ['finished', 'failed', 'cancelled'] as const

/** Every status a round takes: the rounds service writes only these (core/rounds.ts). */
export type RoundStatus = (typeof openRoundStatuses)[number] | (typeof finalRoundStatusList)[number]

export const isOpenRoundStatus = (status: string): boolean => (openRoundStatuses as readonly string[]).includes(status)
