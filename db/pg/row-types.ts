import { ALL_ROWS_MATCH, type RowsMatch } from '../row-types'
import type * as postgresTables from './schema'

/** The PostgreSQL tables' rows are exactly the application layer's rows too (see db/row-types.ts). */
export const postgresRowsMatch: RowsMatch<typeof postgresTables> = ALL_ROWS_MATCH
