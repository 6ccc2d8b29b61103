import { build, type Metafile } from 'esbuild'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The editor's validation worker loads once a workflow is drawn, beside the canvas: it checks a
 * workflow with the engine's schemas, and must not carry what only grades an output (the parsers,
 * the schema validator, the overlap scores), which the assertions load the first time they grade.
 */
const GRADING_ONLY = ['ajv', 'yaml', 'js-rouge', 'fast-xml-parser', 'saxes']

/** The packages a bundle of `entry` loads at start: its own chunk and the chunks that one imports statically. */
async function packagesLoadedAtStart(entry: string): Promise<{ atStart: Set<string>, later: Set<string> }> {
  const { metafile } = await build({
    entryPoints: [entry], bundle: true, splitting: true, format: 'esm', platform: 'browser', write: false, metafile: true,
    outdir: join(process.cwd(), '.worker-bundle-test'), logLevel: 'silent',
  })
  const outputs = metafile.outputs
  const entryOutput = Object.keys(outputs).find(file => outputs[file]!.entryPoint)!
  const loaded = new Set<string>()
  const visit = (file: string) => {
    if (loaded.has(file)) return
    loaded.add(file)
    for (const imported of outputs[file]!.imports) if (imported.kind === 'import-statement') visit(imported.path)
  }
  visit(entryOutput)
  const packagesOf = (files: string[]) => new Set(files.flatMap(file => Object.keys((outputs[file] as Metafile['outputs'][string]).inputs))
    .map(input => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1]).filter((name): name is string => !!name))
  return { atStart: packagesOf([...loaded]), later: packagesOf(Object.keys(outputs).filter(file => !loaded.has(file) && file.endsWith('.js'))) }
}

describe('the validation worker', () => {
  it('loads the engine\'s schemas at start, and the assertions\' parsers and validators only when an assertion grades', async () => {
    const { atStart, later } = await packagesLoadedAtStart('app/workers/validate.worker.ts')
    expect(atStart).toContain('zod')
    expect(GRADING_ONLY.filter(name => atStart.has(name))).toEqual([])
    // They are still in the bundle, in chunks of their own: the test sees the imports it guards.
    expect(GRADING_ONLY.filter(name => !later.has(name))).toEqual([])
  }, 60_000)
})
