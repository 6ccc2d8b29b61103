import { checkCases, parseDatasetFile } from '../files'
import { importPromptfoo } from '../promptfoo'
import type { ImportJob, ImportResults } from './protocol'

/** One import read: on the worker, or on the calling thread when there is none. */
export function readImport<K extends ImportJob['kind']>(job: Extract<ImportJob, { kind: K }>): ImportResults[K] {
  const read = job as ImportJob
  switch (read.kind) {
    case 'file': return parseDatasetFile(read.text, read.format, read.options) as ImportResults[K]
    case 'cases': return checkCases(read.cases) as ImportResults[K]
    case 'promptfoo': return importPromptfoo(read.text, read.options) as ImportResults[K]
  }
}
