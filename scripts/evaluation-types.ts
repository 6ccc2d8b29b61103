/**
 * Writes the lists of evaluation types from the folders of engine/evaluation-types, so that adding
 * a type is its folder alone: `npm run generate:evaluation-types`. A folder holding a `spec.ts` is a
 * type named after the folder; it exports `<name>Spec` from spec.ts, `<name>Fields` and
 * `<name>Checks` from schema.ts and `<name>Type` from index.ts (`<name>` in camelCase).
 *
 * There are three lists because the three sets of modules go to different places: the specs to the
 * editor's page (plain data, no zod), the schemas to the validation worker and the server, the
 * definitions (with `evaluate`) to the server and the CLI only.
 * tests/unit/evaluator/evaluation-types.test.ts fails while a list is stale.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const evaluationTypesDir = fileURLToPath(new URL('../engine/evaluation-types', import.meta.url))

/** The list files, each with the folder module it imports and what it takes from it. */
export const listFiles = {
  'specs.generated.ts': { module: 'spec', exports: { Spec: 'typeSpecs' }, about: 'Each type\'s spec: plain data, no zod (the editor\'s page loads these).' },
  'schemas.generated.ts': { module: 'schema', exports: { Fields: 'typeFields', Checks: 'typeChecks' }, about: 'Each type\'s config fields and checks (zod: the validation worker and the server).' },
  'definitions.generated.ts': { module: 'index', exports: { Type: 'typeDefinitions' }, about: 'Each type\'s definition, with `evaluate` (the server and the CLI).' },
} as const

export type ListFile = keyof typeof listFiles

/** The type folders of `dir`, sorted: each folder holding a spec.ts. */
export function typeFolders(dir: string = evaluationTypesDir): string[] {
  const folders = readdirSync(dir).filter(name => statSync(join(dir, name)).isDirectory() && existsSync(join(dir, name, 'spec.ts'))).sort()
  for (const folder of folders) {
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(folder)) throw new Error(`engine/evaluation-types/${folder}: a type's folder is its name in snake_case (a-z, 0-9, _).`)
    for (const module of ['schema', 'index']) {
      if (!existsSync(join(dir, folder, `${module}.ts`))) throw new Error(`engine/evaluation-types/${folder}/${module}.ts is missing: every type has spec.ts, schema.ts and index.ts.`)
    }
  }
  return folders
}

/** `snake_case` → `camelCase`, the prefix of a folder's exports. */
export function exportPrefix(folder: string): string {
  return folder.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
}

/** The text of one list file for these folders. */
export function renderList(file: ListFile, folders: readonly string[]): string {
  const { module, exports, about } = listFiles[file]
  const names = (folder: string) => Object.keys(exports).map(suffix => `${exportPrefix(folder)}${suffix}`)
  const lines = [
    '// Written by `npm run generate:evaluation-types` (scripts/evaluation-types.ts) from the type folders: do not edit.',
    ...folders.map(folder => `import { ${names(folder).join(', ')} } from './${module === 'index' ? folder : `${folder}/${module}`}'`),
    '',
    `/** ${about} By folder. */`,
  ]
  for (const [suffix, list] of Object.entries(exports)) {
    lines.push(`export const ${list} = {`, ...folders.map(folder => `  ${folder}: ${exportPrefix(folder)}${suffix},`), '}')
  }
  return `${lines.join('\n')}\n`
}

/** Every list file's text for the folders of `dir`. */
export function renderLists(dir: string = evaluationTypesDir): Record<ListFile, string> {
  const folders = typeFolders(dir)
  return Object.fromEntries(Object.keys(listFiles).map(file => [file, renderList(file as ListFile, folders)])) as Record<ListFile, string>
}

/** The list files of `dir` whose text is not what the folders give. */
export function staleLists(dir: string = evaluationTypesDir): ListFile[] {
  return Object.entries(renderLists(dir))
    .filter(([file, text]) => !existsSync(join(dir, file)) || readFileSync(join(dir, file), 'utf8') !== text)
    .map(([file]) => file as ListFile)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stale = staleLists()
  for (const [file, text] of Object.entries(renderLists())) {
    if (stale.includes(file as ListFile)) writeFileSync(join(evaluationTypesDir, file), text)
  }
  console.log(stale.length ? `Wrote engine/evaluation-types/${stale.join(', ')}.` : 'The evaluation type lists are up to date.')
}
