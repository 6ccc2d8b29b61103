import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import madge from 'madge'
import { describe, expect, it } from 'vitest'

/** Every import cycle among `folders` under `root`, type-only imports included (a cycle of types is one too). */
async function cyclesIn(root: string, folders: string[], tsConfig?: string): Promise<string[][]> {
  const graph = await madge(folders.map(folder => join(root, folder)), {
    baseDir: root, fileExtensions: ['ts'], tsConfig, detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  })
  return graph.circular()
}

describe('import cycles', () => {
  it('the engine, the application layer, the stores, the server, the CLI and the web app\'s scripts import nothing in a ring', async () => {
    expect(await cyclesIn(process.cwd(), ['engine', 'core', 'main', 'db', 'server', 'cli', 'shared', 'app'], join(process.cwd(), 'tsconfig.engine.json'))).toEqual([])
  }, 120_000)

  it('finds a planted cycle, type-only imports included', async () => {
    const root = mkdtempSync(join(tmpdir(), 'judgeflow-cycles-'))
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src/a.ts'), 'import type { B } from \'./b\'\nexport interface A { b?: B }\n')
    writeFileSync(join(root, 'src/b.ts'), 'import type { A } from \'./a\'\nexport interface B { a?: A }\n')
    writeFileSync(join(root, 'src/c.ts'), 'export const c = 1\n')
    expect(await cyclesIn(root, ['src'])).toEqual([['src/a.ts', 'src/b.ts']])
  }, 60_000)
})
