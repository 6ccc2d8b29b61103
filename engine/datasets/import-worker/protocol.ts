/** The messages between the import reader (main thread) and its worker thread. */
import type { SerializedError } from '../../errors'
import type { DatasetFormat, ParseOptions, ParsedDataset } from '../files'
import type { DatasetCase } from '../schema'
import type { PromptfooImport, PromptfooImportOptions } from '../promptfoo'

export type ImportJob
  = | { kind: 'file', text: string, format: DatasetFormat, options: ParseOptions }
    | { kind: 'cases', cases: unknown[] }
    /** No file reader: a config read over HTTP carries its tests inline. */
    | { kind: 'promptfoo', text: string, options: Omit<PromptfooImportOptions, 'readFile'> }

export interface ImportResults {
  file: ParsedDataset
  cases: DatasetCase[]
  promptfoo: PromptfooImport
}

export interface ToWorker {
  id: number
  job: ImportJob
}

/**
 * A result travels as JSON text: the structured clone of 70,000 small objects takes the receiving
 * thread 200 ms or more, where parsing their JSON takes a fifth of that.
 */
export type FromWorker
  = | { id: number, ok: true, json: string }
    | { id: number, ok: false, error: SerializedError }
