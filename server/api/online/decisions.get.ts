import { decisionsPage } from '~~/server/utils/online'

/** What each rule decided for each span it saw, and why, newest first (`?rule=`, `?status=`, `?after=` the page before's `next`, `?limit=`). */
export default defineEventHandler(event => decisionsPage(event))
