import { defineEvaluationTypeSpec } from '../spec'
import { PANEL_FIELD, SAMPLES_FIELD, WARNINGS_FIELD } from '../outputs'

export const scoringSpec = defineEvaluationTypeSpec({
  type: 'scoring',
  label: 'Scoring',
  description: 'One overall score from the judge, with feedback.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  panel: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback'],
  order: 1,
  outputs: () => ({ scoreKeys: ['overall'], scoreKeysAre: '`overall`', fields: { samples: SAMPLES_FIELD, panel: PANEL_FIELD, warnings: WARNINGS_FIELD } }),
})
