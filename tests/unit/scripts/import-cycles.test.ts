import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { componentImports, importCycles, importGraph } from '../../../scripts/import-graph'

/** Every import ring among `folders` under `root`, type-only imports and Vue components' scripts included. */
async function cyclesIn(root: string, folders: string[], tsConfig?: string): Promise<string[][]> {
  return importCycles(await importGraph(root, folders, tsConfig))
}

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'judgeflow-cycles-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('import cycles', () => {
  it('the engine, the application layer, the stores, the server, the CLI and the web app (its components and pages too) import nothing in a ring', async () => {
    const folders = ['engine', 'core', 'main', 'db', 'server', 'cli', 'shared', 'app', 'components', 'pages']
    expect(await cyclesIn(process.cwd(), folders, join(process.cwd(), 'tsconfig.engine.json'))).toEqual([])
  }, 120_000)

  it('finds a planted cycle, type-only imports included', async () => {
    const root = project({
      'src/a.ts': 'import type { B } from \'./b\'\nexport interface A { b?: B }\n',
      'src/b.ts': 'import type { A } from \'./a\'\nexport interface B { a?: A }\n',
      'src/c.ts': 'export const c = 1\n',
    })
    expect(await cyclesIn(root, ['src'])).toEqual([['src/a.ts', 'src/b.ts']])
  }, 60_000)

  it('finds a planted cycle through components\' <script setup lang="ts"> blocks and Nuxt\'s aliases', async () => {
    const root = project({
      'components/Outer.vue': '<script setup lang="ts">\nimport Inner from \'./nested/Inner.vue\'\nimport { helper } from \'~/utils/helper\'\n</script>\n<template><Inner /></template>\n',
      'components/nested/Inner.vue': '<script lang="ts">\nexport const shared = 1\n</script>\n<script setup lang="ts">\nimport type { Kind } from \'~~/engine/kinds\'\n</script>\n',
      'engine/kinds.ts': 'import type { Outer } from \'../components/types\'\nexport type Kind = Outer\n',
      'components/types.ts': 'import type Outer from \'./Outer.vue\'\nexport type { Outer }\n',
      'app/utils/helper.ts': 'export const helper = 1\n',
    })
    expect(componentImports(root, join(root, 'components/Outer.vue'))).toEqual(['app/utils/helper.ts', 'components/nested/Inner.vue'])
    expect(await cyclesIn(root, ['components', 'engine', 'app'])).toEqual([['components/Outer.vue', 'components/nested/Inner.vue', 'components/types.ts', 'engine/kinds.ts']])
    // Without the component's import of Inner, there is no ring.
    writeFileSync(join(root, 'components/Outer.vue'), '<script setup lang="ts">\nimport { helper } from \'~/utils/helper\'\n</script>\n')
    expect(await cyclesIn(root, ['components', 'engine', 'app'])).toEqual([])
  }, 60_000)

  it('a module importing itself is a ring of one', () => {
    expect(importCycles({ 'a.ts': ['a.ts', 'b.ts'], 'b.ts': [] })).toEqual([['a.ts']])
    expect(importCycles({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts', 'd.ts'], 'd.ts': ['e.ts'], 'e.ts': ['d.ts'] })).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts']])
  })
})
