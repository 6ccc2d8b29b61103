import { decisionsPage } from '~~/server/utils/online'

/** The spans scored, with their score, verdict, reason and run, newest first (`?rule=`, `?after=`, `?limit=`). */
export default defineEventHandler(event => decisionsPage(event, 'scored'))
