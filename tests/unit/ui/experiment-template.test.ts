import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { experimentSchema } from '../../../engine/experiments/schema'
import { experimentTemplate } from '../../../app/utils/experiment-template'

describe('the new-experiment template', () => {
  it('has the suggested documents, problems, bonus candidates and runs, and is a valid experiment', () => {
    const experiment = experimentSchema.parse(parse(experimentTemplate()))
    expect(experiment.documents).toHaveLength(2)
    expect(experiment.runs_per_document).toBe(2)
    for (const document of experiment.documents) {
      expect(document.problems).toHaveLength(10)
      const count = (key: 'severity' | 'category', value: string) => document.problems.filter(p => p[key] === value).length
      expect([count('severity', 'critical'), count('severity', 'major'), count('severity', 'minor')]).toEqual([3, 4, 3])
      expect([count('category', 'main'), count('category', 'adjacent'), count('category', 'subtle')]).toEqual([6, 2, 2])
      expect(document.bonus_candidates).toHaveLength(3)
    }
  })
})
