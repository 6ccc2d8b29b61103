import { z } from 'zod'
import { useJudgeflow } from '../../utils/context'
import { presentDatasetSummary } from '../../utils/datasets'
import { notFound, readQueryWith, routeId } from '../../utils/http'
import { wholeNumber } from '../../utils/parameters'

const querySchema = z.object({ version: wholeNumber().optional() })

/** The dataset with the cases of its current version, or of ?version=. */
export default defineEventHandler(async (event) => {
  const { version } = await readQueryWith(event, querySchema)
  const dataset = await useJudgeflow().store.datasets.get(routeId(event), version)
  if (!dataset) notFound(version ? `version ${version} of dataset` : 'dataset', routeId(event))
  return { ...presentDatasetSummary(dataset), version: dataset.version, cases: dataset.cases }
})
