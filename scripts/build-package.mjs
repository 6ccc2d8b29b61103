// Compiles the CLI and the library to dist/ (JavaScript and .d.ts types), with the files they find
// beside themselves at run time: the migrations and the evaluation worker's entry.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { spawnSync } from 'node:child_process'
import { build } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const dist = join(root, 'dist')
// Packing ships the built app too (.output/): built here when there is none (`npm run build` builds both).
if (process.argv.includes('--app-when-missing') && !existsSync(join(root, '.output/server/index.mjs'))) {
  const app = spawnSync('npx', ['nuxt', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NUXT_TELEMETRY_DISABLED: '1' } })
  if (app.status !== 0) process.exit(app.status ?? 1)
}
rmSync(dist, { recursive: true, force: true })

/**
 * zod's namespace re-exports every locale's messages (some 400 KB the CLI would load and compile
 * at every start); judgeflow's messages are English (zod's default, which zod sets from `en.js`
 * itself), so `z.locales` in the package holds English alone.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined
      return { path: join(dirname(args.importer), '../locales/en-only.js'), namespace: 'zod-locales' }
    })
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, args => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))}`,
      resolveDir: dirname(args.path),
    }))
  },
}

await build({
  absWorkingDir: root,
  entryPoints: { 'cli': 'cli/main.ts', 'index': 'main/library.ts', 'evaluation-worker': 'engine/evaluator/worker/entry.ts' },
  outdir: dist,
  // One folder: every chunk finds `./migrations` and `./evaluation-worker.js` beside itself.
  chunkNames: 'chunks-[hash]',
  bundle: true,
  splitting: true,
  // The pure-JavaScript packages are bundled in: the CLI starts without resolving and loading
  // hundreds of files across node_modules (a quarter of a second of `judgeflow test`'s start).
  // Native code (better-sqlite3, esbuild's binary), what loads only on use (the PostgreSQL side,
  // the LLM SDKs) and tsx's loader stay installed packages.
  external: ['better-sqlite3', 'esbuild', 'tsx', 'tsx/*', 'pg', 'pg-boss', 'openai', 'openai/*', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*'],
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: { js: 'import { createRequire as __createRequire } from \'node:module\'; const require = __createRequire(import.meta.url);' },
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outExtension: { '.js': '.js' },
  logLevel: 'warning',
  plugins: [englishOnlyZod],
})
cpSync(join(root, 'db/migrations'), join(dist, 'migrations'), { recursive: true })
cpSync(join(root, 'db/pg/migrations'), join(dist, 'pg-migrations'), { recursive: true })

const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.package.json'], { cwd: root, stdio: 'inherit' })
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
addExtensions(join(dist, 'types'))

/**
 * The sources import without extensions (bundler resolution); a project that resolves as Node
 * does (`moduleResolution: node16`) needs them in the declarations: `./x.js` or `./x/index.js`.
 */
function addExtensions(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) {
      addExtensions(path)
      continue
    }
    if (!name.endsWith('.d.ts')) continue
    const text = readFileSync(path, 'utf8')
    // Inferred types name a folder bare too: `import("..").ScorerDefinition`.
    const fixed = text.replace(/(from\s+|import\()(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g, (whole, lead, quote, specifier) => {
      const target = resolve(dirname(path), specifier)
      if (existsSync(`${target}.d.ts`)) return `${lead}${quote}${specifier}.js${quote}`
      if (existsSync(join(target, 'index.d.ts'))) return `${lead}${quote}${specifier.replace(/\/$/, '')}/index.js${quote}`
      return whole
    })
    if (fixed !== text) writeFileSync(path, fixed)
  }
}
console.log(`judgeflow: compiled the CLI and the library into ${relative(root, dist)}/`)
