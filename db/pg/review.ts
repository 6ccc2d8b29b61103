import type { ReviewRepository } from '../../core/review-rows'
import { reviewRepository, type ReviewTables } from '../review'
import { performOnPostgres } from '../statement-program'
import type { PgDb } from './client'
import { reviewItems, reviewLabels, reviewLeases, reviewQueues } from './schema'

/** Human review's tables on PostgreSQL: a queue's row is locked FOR UPDATE while its items are numbered or handed out. */
export const pgReviewTables: ReviewTables = { reviewQueues, reviewItems, reviewLabels, reviewLeases, forUpdate: query => query.for('update') }

/** Review queues on PostgreSQL: the implementation shared with SQLite (db/review.ts), each call after the migrations. */
export const pgReview = (db: PgDb, ready: Promise<void>): ReviewRepository => reviewRepository(pgReviewTables, performOnPostgres(db, ready))
