import { parseOutputsFile, withRecordedOutputs, type DatasetCase } from '../engine/datasets'
import { readTextFile } from './io'

/**
 * `judgeflow test … --outputs <file.jsonl>`: the dataset's cases with the outputs the file records
 * (one line per case, `{ "id": "<case id>", "output": "<text>" | { … } }`), and the file's name, which
 * the report gives as where they came from. Undefined without --outputs (a dataset's own `output`
 * column is then read by the dataset run itself).
 */
export function recordedOutputsOf(
  values: { 'outputs'?: string, 'output-step'?: string }, cases: readonly DatasetCase[], maxDepth: number,
): { cases: DatasetCase[], from: string } | undefined {
  const file = values.outputs
  if (file === undefined) return undefined
  const where = `the outputs file "${file}"`
  const outputs = parseOutputsFile(readTextFile(file, 'outputs'), where, maxDepth)
  return { cases: withRecordedOutputs(cases, outputs, where), from: file }
}
