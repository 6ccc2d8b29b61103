import { z } from 'zod'
import { useJudgeflow } from '../../utils/context'
import { presentDatasetSummary } from '../../utils/datasets'
import { notFound, readQueryWith, routeId } from '../../utils/http'

const querySchema = z.object({ version: z.coerce.number().int().min(1).optional() })

/** The dataset with the cases of its current version, or of ?version=. */
export default defineEventHandler(async (event) => {
  const { version } = await readQueryWith(event, querySchema)
  const dataset = await useJudgeflow().store.datasets.get(routeId(event), version)
  if (!dataset) notFound(version ? `version ${version} of dataset` : 'dataset', routeId(event))
  return { ...presentDatasetSummary(dataset), version: dataset.version, cases: dataset.cases }
})
