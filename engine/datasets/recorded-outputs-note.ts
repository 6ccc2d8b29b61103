/** What a report says of recorded outputs (recorded-outputs.ts); browser-safe, read by every report format. */

/** Where the outputs came from when the dataset's cases hold them. */
export const DATASET_OUTPUT_COLUMN = 'the dataset\'s output column'

/** How a dataset run judges recorded outputs: where they came from, and the step they stand in for (null: an evaluator alone). */
export interface RecordedOutputs {
  from: string
  step: string | null
}

/** The report's sentence on recorded outputs: the summary, markdown and HTML say the same. */
export function recordedOutputsNote(recorded: RecordedOutputs): string {
  return `Outputs recorded, not generated: read from ${recorded.from}${recorded.step ? `, standing in for step "${recorded.step}"` : ', judged as the content'}; no generation call was made.`
}
