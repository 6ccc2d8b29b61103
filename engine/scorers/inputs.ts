/**
 * What a scorer reads as the output it scores, declared by each scorer (its `input`), so the form
 * can say what a scorer or preset needs before a run refuses the data. Plain data, browser-safe.
 * Ordered from the least to the most demanding: a list needs what its most demanding scorer needs.
 */
export const SCORER_INPUTS = {
  'text': { label: 'Text', needsJson: false, needs: 'any text' },
  'json': { label: 'JSON', needsJson: true, needs: 'JSON input: a JSON value, or text that parses as JSON' },
  'document-edit': { label: 'Document edits', needsJson: true, needs: 'JSON input: the output an edit { "operations": [...] }, expected { "operations", "patterns" }, original { "blocks" }' },
} as const satisfies Record<string, { label: string, needsJson: boolean, needs: string }>

export type ScorerInput = keyof typeof SCORER_INPUTS
export const scorerInputs = Object.keys(SCORER_INPUTS) as ScorerInput[]

export const isScorerInput = (value: unknown): value is ScorerInput => typeof value === 'string' && value in SCORER_INPUTS

/** What a list of scorers needs: the most demanding of their inputs; a scorer that declares none (a custom one) is not counted. */
export function inputOfList(inputs: ReadonlyArray<ScorerInput | undefined>): ScorerInput {
  return inputs.reduce<ScorerInput>((most, input) => (input && scorerInputs.indexOf(input) > scorerInputs.indexOf(most) ? input : most), 'text')
}
