import type { ScorerConfig } from '../schema/scorers'

/** Three ready-made scorer lists: standard, strict (higher thresholds, no hallucination allowed) and operation-focused. */
export const SCORER_PRESETS: Record<'standard' | 'strict' | 'operation-focused', ScorerConfig[]> = {
  'standard': [
    { type: 'operation-accuracy', weight: 1.0, threshold: 0.8, options: {} },
    { type: 'target-block-precision', weight: 1.0, threshold: 0.75, options: {} },
    { type: 'content-quality', weight: 1.0, threshold: 0.6, options: {} },
  ],
  'strict': [
    { type: 'operation-accuracy', weight: 1.0, threshold: 0.9, options: {} },
    { type: 'target-block-precision', weight: 1.0, threshold: 0.9, options: {} },
    { type: 'content-quality', weight: 1.0, threshold: 0.8, options: {} },
    { type: 'anti-hallucination', weight: 2.0, threshold: 1.0, options: {} },
  ],
  'operation-focused': [
    { type: 'operation-accuracy', weight: 2.0, threshold: 0.9, options: {} },
    { type: 'target-block-precision', weight: 1.5, threshold: 0.85, options: {} },
    { type: 'content-quality', weight: 0.5, threshold: 0.5, options: {} },
  ],
}
