/** The evaluator's arithmetic: pure functions, pinned by tests against hand-computed numbers. */
import type { RubricGrade } from '../evaluation-types/parts'

/** Scores are kept to 6 decimals so 0.5·0.9 + 0.5·0.8 is 0.85, not 0.8500000000000001. */
export function roundScore(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value))
}

/** Σ score·weight over the weighted names; weights are validated to sum to 1 beforehand. */
export function weightedAverage(scores: Record<string, number>, weights: Record<string, number>): number {
  let total = 0
  for (const [name, weight] of Object.entries(weights)) total += (scores[name] ?? 0) * weight
  return roundScore(total)
}

/** `passed` is the overall score reaching the threshold; never the judge's own opinion. */
export function passes(score: number, threshold: number): boolean {
  return score >= threshold - 1e-9
}

/** A/B/C/D/F at 0.9/0.8/0.7/0.6/0, the common school bands. */
export const DEFAULT_GRADES: RubricGrade[] = [
  { grade: 'A', min_score: 0.9, description: 'Excellent: fully meets every criterion.' },
  { grade: 'B', min_score: 0.8, description: 'Good: meets the criteria with minor gaps.' },
  { grade: 'C', min_score: 0.7, description: 'Adequate: meets the main criteria, with noticeable gaps.' },
  { grade: 'D', min_score: 0.6, description: 'Weak: misses important parts of the criteria.' },
  { grade: 'F', min_score: 0, description: 'Failing: does not meet the criteria.' },
]

/** The grade whose band holds the score: the highest `min_score` at or below it (bands sorted high to low). */
export function gradeFor(score: number, grades: readonly RubricGrade[]): string | null {
  for (const band of grades) if (score >= band.min_score - 1e-9) return band.grade
  return null
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function sampleSd(values: readonly number[]): number {
  if (values.length < 2) return 0
  const m = mean(values)
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1))
}

export interface ConfidenceFactors {
  /** Agreement across samples or comparison orders: 1 when they agree, lower as they spread. */
  agreement: number
  /** Distance of the score from the threshold: a score on the threshold is a coin flip. */
  margin: number
  /** 1 when the judge's first answer was valid, lower for each re-ask it needed. */
  validity: number
  /** How far the judge itself is trusted: 1 for an LLM judge, 0.5 for the offline heuristic judge. */
  judge: number
}

/**
 * confidence = agreement × validity × judge × (0.5 + 0.5 × margin), where
 * margin = min(1, |score − threshold| / 0.15).
 */
export function confidenceOf(factors: ConfidenceFactors): number {
  return Math.round(factors.agreement * factors.validity * factors.judge * (0.5 + 0.5 * factors.margin) * 1000) / 1000
}

export function marginOf(score: number, threshold: number): number {
  return Math.min(1, Math.abs(score - threshold) / 0.15)
}

/** Agreement from the spread of overall scores: an SD of 0.25 or more counts as no agreement. */
export function agreementFromSd(sd: number): number {
  return clamp01(1 - sd / 0.25)
}
