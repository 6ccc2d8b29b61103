/**
 * A code step's JavaScript or TypeScript module made into one ES module text, with esbuild (the
 * one tsx brings): its TypeScript stripped, its relative imports and its packages put in, Node's
 * built-ins left to `import`. The sandbox then sees only this text — none of the files it came
 * from — and an inline source map turns its stack frames back into the user's files and lines.
 *
 * Every file put in lies in the module's folder or in a `node_modules` folder (a package's code):
 * an import that reaches past the folder is refused naming both. A bundle is made once per module
 * and made again when one of its files changed.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import type { Plugin } from 'esbuild'
import { JudgeflowError } from '../errors'
import { isInsideFolder as inside } from '../evaluator/config-file'

/** The bundle's name in the folder its source map's paths are relative to: the sandbox writes it there. */
export const BUNDLE_NAME = '__judgeflow_module.mjs'

/**
 * The module's own URL in the bundle's text, put together at run time: the server's bundler (Nitro)
 * rewrites `import.meta` wherever it appears in the server's code, strings included.
 */
const META_URL = ['import', 'meta', 'url'].join('.')

/** Modules whose bundle is kept; the oldest goes first. */
const MAX_CACHED = 32

interface Cached {
  code: string
  inputs: Array<{ path: string, mtimeMs: number, size: number }>
}

const cache = new Map<string, Cached>()

/** Refuses to read a file outside the folder that is not a package's. */
function withinFolder(root: string, label: string): Plugin {
  return {
    name: 'judgeflow-within-folder',
    setup(build) {
      build.onLoad({ filter: /.*/ }, (args) => {
        if (args.namespace !== 'file' || inside(root, args.path) || args.path.split(sep).includes('node_modules')) return undefined
        return { errors: [{ text: `${label} imports ${args.path}, which is outside ${root}: a code step's module and the files it imports lie in that folder (packages in node_modules excepted)` }] }
      })
    },
  }
}

/** A `.js` file of CommonJS shape: `module.exports` or `exports.x =`, and no `import` or `export` statement. */
const CJS_SHAPE = /\bmodule\.exports\b|\bexports\.[\w$]+\s*=/
const ESM_SYNTAX = /^\s*(?:import\s*[\w{*'"]|export\s)/m

/**
 * A `.js` file written as CommonJS where its package says `"type": "module"`: bundled as an ES
 * module it would lose `module.exports`. It is read as CommonJS, as Node's loaders (and promptfoo's
 * fallback) read it, its `module.exports` the default export.
 */
function commonJsFallback(): Plugin {
  return {
    name: 'judgeflow-commonjs-fallback',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        if (args.path.split(sep).includes('node_modules')) return undefined
        const source = await readFile(args.path, 'utf8')
        if (!CJS_SHAPE.test(source) || ESM_SYNTAX.test(source)) return undefined
        return { contents: `const module = { exports: {} }; let exports = module.exports;\n${source}\nexport default module.exports;\n`, loader: 'js' }
      })
    },
  }
}

async function unchanged(inputs: Cached['inputs']): Promise<boolean> {
  const now = await Promise.all(inputs.map(input => stat(input.path).catch(() => undefined)))
  return now.every((s, i) => s !== undefined && s.mtimeMs === inputs[i]!.mtimeMs && s.size === inputs[i]!.size)
}

function bundleFailed(label: string, message: string): JudgeflowError {
  return new JudgeflowError('SCRIPT_FAILED', `The module ${label} could not be loaded: ${message}`, { details: { language: 'JavaScript', reason: 'load' } })
}

/** The bundle of `file` (a real path inside `root`, named `label` in messages), or SCRIPT_FAILED saying what esbuild found wrong. */
export async function bundleModule(file: string, root: string, label: string): Promise<string> {
  const hit = cache.get(file)
  if (hit && await unchanged(hit.inputs)) return hit.code
  let esbuild: typeof import('esbuild')
  try {
    esbuild = await import('esbuild')
  }
  catch {
    throw bundleFailed(label, 'esbuild, which judgeflow uses to load JavaScript and TypeScript modules, is not installed: reinstall judgeflow\'s dependencies (npm install).')
  }
  let result: Awaited<ReturnType<typeof esbuild.build>>
  try {
    result = await esbuild.build({
      entryPoints: [file], absWorkingDir: root, outfile: join(root, BUNDLE_NAME), write: false, metafile: true,
      bundle: true, format: 'esm', platform: 'node', target: 'node20', sourcemap: 'inline', sourcesContent: false,
      // A package written as CommonJS may require Node's built-ins: an ES module has no `require` of its own.
      banner: { js: `import { createRequire as __judgeflowRequire } from 'node:module'; const require = __judgeflowRequire(${META_URL});` },
      logLevel: 'silent', plugins: [withinFolder(root, label), commonJsFallback()],
    })
  }
  catch (error) {
    const first = (error as { errors?: Array<{ text: string, location?: { file: string, line: number, column: number } | null }> }).errors?.[0]
    if (!first) throw bundleFailed(label, (error as Error).message)
    const at = first.location ? ` (${first.location.file}:${first.location.line}:${first.location.column + 1})` : ''
    throw bundleFailed(label, `${first.text}${at}`)
  }
  const code = result.outputFiles?.[0]?.text ?? ''
  const inputs = await Promise.all(Object.keys(result.metafile?.inputs ?? {}).map(async (path) => {
    const full = join(root, path)
    const s = await stat(full).catch(() => undefined)
    return { path: full, mtimeMs: s?.mtimeMs ?? -1, size: s?.size ?? -1 }
  }))
  cache.delete(file)
  cache.set(file, { code, inputs })
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!)
  return code
}
