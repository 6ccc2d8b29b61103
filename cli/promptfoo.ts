import { dirname, resolve } from 'node:path'
import { importPromptfoo, type PromptfooImport } from '../engine/datasets'
import { readTextFile } from './io'
import { globFiles } from './file-glob'
import type { InputFile } from './output-paths'

interface ReadOptions { judge?: string, name?: string, maxDepth: number, skipUnsupported?: boolean }

/**
 * A promptfoo config read from its file, the files it names (`file://…`) read beside it; each file
 * read is added to `inputs`, so that no output of the command overwrites it.
 */
export function readPromptfooConfig(file: string, options: ReadOptions, inputs: InputFile[]): PromptfooImport {
  const folder = dirname(resolve(file))
  inputs.push({ path: file, what: 'the promptfoo config' })
  return importPromptfoo(readTextFile(file, 'promptfoo config'), {
    readFile: (path) => {
      inputs.push({ path: resolve(folder, path), what: 'a file of the promptfoo config' })
      return readTextFile(resolve(folder, path), 'promptfoo')
    },
    listFiles: pattern => globFiles(folder, pattern),
    judge: options.judge,
    name: options.name,
    maxDepth: options.maxDepth,
    skipUnsupported: options.skipUnsupported,
  })
}
