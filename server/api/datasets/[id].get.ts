import { z } from 'zod'
import { useJudgeflow } from '~~/server/utils/context'
import { DEFAULT_CASES_PAGE, MAX_CASES_PAGE, PAGE_CHARACTERS, presentDatasetPage } from '~~/server/utils/dataset-pages'
import { notFound, readQueryWith, routeId } from '~~/server/utils/http'
import { wholeNumber } from '~~/server/utils/parameters'

const querySchema = z.object({
  version: wholeNumber().optional(),
  offset: wholeNumber({ min: 0 }).optional(),
  limit: wholeNumber({ max: MAX_CASES_PAGE }).optional(),
})

/** The dataset with a page of the cases of its current version, or of ?version=: ?offset= (0) and ?limit= (100, at most 1,000). */
export default defineEventHandler(async (event) => {
  const { version, offset = 0, limit = DEFAULT_CASES_PAGE } = await readQueryWith(event, querySchema)
  const dataset = await useJudgeflow().store.datasets.casesPage(routeId(event), { version, offset, limit, maxCharacters: PAGE_CHARACTERS })
  if (!dataset) notFound(version ? `version ${version} of dataset` : 'dataset', routeId(event))
  return presentDatasetPage(dataset, offset, limit)
})
