import stylistic from '@stylistic/eslint-plugin'
import vue from 'eslint-plugin-vue'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import judgeflow from './scripts/eslint-rules.mjs'

/** What the engine may not import: it is framework-free. */
const ENGINE_IMPORTS = [
  {
    regex: '^(nuxt|nitropack|h3|vue|@vue|pinia|@pinia|drizzle-orm|better-sqlite3|#imports|#app|#internal|~|~~|@)(/.*)?$',
    message: 'engine/ is framework-free: no Nuxt, Nitro, h3, Vue, database driver or app aliases.',
  },
  {
    regex: '^(\\.\\./)+(server|db|app|pages|components|cli|core)(/.*)?$',
    message: 'engine/ imports nothing from the server, the database, the web app, the application layer or the CLI: they pass it what it needs.',
  },
]
const NODE_IMPORTS = {
  regex: '^(node:.*|assert|async_hooks|buffer|child_process|cluster|crypto|dns|events|fs|fs/promises|http|http2|https|module|net|os|path|perf_hooks|process|readline|stream|string_decoder|timers|tls|url|util|v8|vm|worker_threads|zlib)$',
  message: 'The web app imports this module: it runs in the browser, so no Node built-ins (see DEVELOPERS.md, browser-safe modules).',
}
const ZOD_IMPORTS = {
  regex: '^zod(/.*)?$',
  message: 'Components import this module: keep zod off the page (see DEVELOPERS.md, browser-safe modules).',
}

/** The browser-safe engine modules DEVELOPERS.md lists: the web app imports them. */
const BROWSER_SAFE = [
  'engine/schema/*.ts', 'engine/graph/*.ts', 'engine/steps/specs.ts', 'engine/steps/*/spec.ts', 'engine/steps/outputs.ts', 'engine/steps/*/outputs.ts',
  'engine/steps/output-declarations.ts', 'engine/evaluation-types/*/spec.ts', 'engine/evaluation-types/*/schema.ts', 'engine/evaluation-types/specs.ts',
  'engine/evaluation-types/specs.generated.ts', 'engine/evaluation-types/schemas.generated.ts', 'engine/evaluation-types/config-schema.ts',
  'engine/evaluation-types/llm-params.ts', 'engine/evaluation-types/inputs.ts', 'engine/evaluation-types/outputs.ts', 'engine/scorers/compares.ts',
  'engine/scorers/presets.ts', 'engine/executor/references.ts', 'engine/executor/truncated.ts', 'engine/evaluator/metric-suite-toml.ts',
  'engine/steps/step-meta.ts', 'engine/executor/event-types.ts', 'engine/experiments/round-statuses.ts', 'engine/text/safe-regex.ts', 'engine/text/schema-patterns.ts', 'engine/scorers/patterns.ts',
]
/** Of those, the evaluation types' page and the output declarations the `{{` completion reads, free of zod too. */
const ZOD_FREE = [
  'engine/text/safe-json.ts', 'engine/text/safe-yaml.ts', 'engine/text/own-json.ts', 'engine/text/yaml-text.ts', 'engine/schema/env-name.ts', 'engine/executor/references.ts', 'engine/steps/step-meta.ts', 'engine/executor/event-types.ts', 'engine/experiments/round-statuses.ts', 'engine/steps/outputs.ts', 'engine/steps/*/outputs.ts', 'engine/steps/output-declarations.ts',
  'engine/evaluation-types/*/spec.ts', 'engine/evaluation-types/specs.ts', 'engine/evaluation-types/specs.generated.ts', 'engine/evaluation-types/outputs.ts',
]

/** The application around the engine: the app layer, the stores, the server, the CLI and the web app. */
const APPLICATION = ['core/**/*.ts', 'main/**/*.ts', 'db/**/*.ts', 'server/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts', 'app/**/*.ts', 'app/**/*.vue', 'pages/**/*.vue', 'components/**/*.vue']
const READS_ENV = {
  selector: 'MemberExpression[object.name=\'process\'][property.name=\'env\']',
  message: 'Settings are read from the environment in core/config.ts alone (loadConfig, processEnv): take them from the config you are given.',
}
const THROWS_PLAIN_ERROR = {
  selector: 'ThrowStatement > NewExpression[callee.name=\'Error\']',
  message: 'Throw a JudgeflowError (engine/errors.ts) with a code and a message that says what to do, not a plain Error.',
}

/** Code written by hand, held to the size budgets below: not the tests, not generated lists. */
const SIZED = ['engine/**/*.ts', 'core/**/*.ts', 'main/**/*.ts', 'db/**/*.ts', 'server/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts', 'app/**/*.ts', 'app/**/*.vue',
  'pages/**/*.vue', 'components/**/*.vue', 'scripts/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.ts']
const GENERATED = ['**/*.generated.ts']
/** Lines of code (blank and comment-only lines not counted) a function may hold. */
const MAX_FUNCTION_LINES = 80
/**
 * Functions over the budget today, each by `file#name` with the length it may not pass and why it is one piece still;
 * the rule (scripts/eslint-rules.mjs) says when one grows. Shorten them, then drop the line.
 */
const FUNCTION_LENGTH_EXCEPTIONS = {
  'app/composables/useCanvasRoom.ts#useCanvasRoom': { lines: 110, why: 'one composable whose watchers share the canvas\'s measured sizes; each part short' },
  'core/config.ts#loadConfig': { lines: 140, why: 'one read per environment variable, in the order the README lists them' },
  'db/pg/queue.ts#createPgRunQueue': { lines: 97, why: 'the queue\'s methods in one closure over pg-boss and its pool; each method short' },
  'engine/datasets/report.ts#buildDatasetReport': { lines: 98, why: 'the report\'s sections built in the order it shows them' },
  'engine/datasets/runner.ts#runCases': { lines: 83, why: 'the scheduling loop and the callbacks that share its queue and pacer' },
}
/** Lines a module may hold (every line, as `wc -l` counts). */
const MAX_MODULE_LINES = 300
/** Modules over it today, with the length each may not pass and why; split them, then drop the line. */
const MODULE_LENGTH_EXCEPTIONS = {
  'engine/executor/execution.ts': { lines: 464, why: 'one run\'s scheduling state: ready set, retries, cancellation, events' },
  'components/editor/FlowCanvas.vue': { lines: 402, why: 'Vue Flow\'s wiring (events, drag, selection, keys) with the canvas\'s template and styles' },
  'core/config.ts': { lines: 398, why: 'every environment variable with its check and message, one place' },
  'app/utils/runs.ts': { lines: 376, why: 'the run views\' pure presenters, one per panel' },
  'engine/datasets/files.ts': { lines: 370, why: 'the dataset file formats (JSON, YAML, CSV, JSONL) and their line-numbered errors' },
  'components/datasets/DatasetRunDialog.vue': { lines: 367, why: 'the dataset run form: template and styles over half of it' },
  'components/datasets/CaseEditor.vue': { lines: 361, why: 'the case editor: a field per input type, its template and styles nearly half of it' },
  'engine/datasets/report.ts': { lines: 337, why: 'the dataset report\'s sections and summaries' },
  'components/editor/NodePanel.vue': { lines: 329, why: 'the step settings panel: template and styles over half of it' },
  // A file name with brackets, escaped for the glob.
  'pages/workflows/\\[id\\].vue': { lines: 310, why: 'the editor page composing canvas, panel and run views; template and styles 133 lines of it' },
  'components/editor/StepNode.vue': { lines: 302, why: 'the step card: template and styles over half of it' },
}

/**
 * Where JSON.parse and the YAML, TOML and CSV parsers may be used besides engine/text, and why: none of them reads
 * a user's text. (Strings of code run elsewhere, as the sandboxes' drivers, are not calls here.)
 */
const RAW_PARSE_ALLOWED = [
  // The project's tooling reads its tools' own reports (Vitest's, promptfoo's, the benchmarks' children) and package.json.
  'scripts/**', 'bench/**',
]

export default tseslint.config(
  { ignores: ['db/migrations/**', '.output/**', '.nuxt/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**', 'dist/**', '.judgeflow/**'] },
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  stylistic.configs.customize({ indent: 2, quotes: 'single', semi: false }),
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      '@stylistic/max-statements-per-line': 'off',
      // Long strings, template literals, URLs and regular expressions stay whole, so a message can be found by grep.
      '@stylistic/max-len': ['error', { code: 160, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // The engine is framework-free: the CLI, the server and the tests drive the same code, passing in what it needs.
    files: ['engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ENGINE_IMPORTS }] },
  },
  {
    // Modules the web app imports run in the browser: no Node built-ins.
    files: BROWSER_SAFE,
    rules: { 'no-restricted-imports': ['error', { patterns: [...ENGINE_IMPORTS, NODE_IMPORTS] }] },
  },
  {
    // Components import these: zod never loads on the page.
    files: ZOD_FREE,
    rules: { 'no-restricted-imports': ['error', { patterns: [...ENGINE_IMPORTS, NODE_IMPORTS, ZOD_IMPORTS] }] },
  },
  {
    // The server reaches storage through the app's store (core/store.ts), never the database code itself.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^((\\.\\./)+|~~/)db(/.*)?$', message: 'The server never imports db/: use useJudgeflow().store, and the row types core/store.ts exports.' },
          { regex: '^\\.\\./', message: 'Import from the project root with ~~/ (e.g. ~~/engine, ~~/server/utils/http), not by climbing folders: the server has one import style (./ for a module beside it).' },
        ],
      }],
    },
  },
  {
    // The application layer owns the store contract and its rows; it opens no database itself (main/ does).
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(\\.\\./)+(db|main)(/.*)?$', message: 'core/ imports nothing from db/ (or main/): the stores implement its contract (core/store.ts, core/rows.ts), and main/ hands it one.' }],
      }],
    },
  },
  {
    // The editor's page loads no schemas: they (and every evaluation type's checks behind them) run in the validation worker.
    files: ['app/**/*.ts', 'app/**/*.vue', 'components/**/*.vue', 'pages/**/*.vue', 'components/**/*.vue'],
    ignores: ['app/utils/validate.ts', 'app/workers/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{
          regex: 'engine/(steps/specs|steps/[a-z]+/spec|schema/evaluator|schema/workflow|schema/common|evaluation-types/config-schema|evaluation-types/inputs)$',
          allowTypeImports: true,
          message: 'The page loads no step or evaluator schemas (they bring zod and every evaluation type\'s checks): use engine/steps/step-meta.ts, or validate in the worker (app/utils/validate.ts).',
        }],
      }],
    },
  },
  {
    // The environment is read in core/config.ts alone; everything else is handed its settings.
    files: ['engine/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', READS_ENV] },
  },
  {
    // Errors are JudgeflowErrors, with a code the HTTP mapping and the CLI's exit codes read.
    // (The engine's assertions throw plain Errors on purpose: they become a failed check with promptfoo's message.)
    files: APPLICATION,
    rules: { 'no-restricted-syntax': ['error', READS_ENV, THROWS_PLAIN_ERROR] },
  },
  {
    files: ['core/config.ts'],
    rules: { 'no-restricted-syntax': ['error', THROWS_PLAIN_ERROR] },
  },
  {
    // A function does one job in at most MAX_FUNCTION_LINES lines of code; a module stays under MAX_MODULE_LINES lines.
    files: SIZED,
    ignores: GENERATED,
    plugins: { judgeflow },
    rules: {
      'judgeflow/function-length': ['error', { max: MAX_FUNCTION_LINES, exceptions: FUNCTION_LENGTH_EXCEPTIONS }],
      'max-lines': ['error', { max: MAX_MODULE_LINES }],
    },
  },
  ...Object.entries(MODULE_LENGTH_EXCEPTIONS).map(([file, { lines }]) => ({ files: [file], rules: { 'max-lines': ['error', { max: lines }] } })),
  {
    // User text is parsed through engine/text, which bounds its depth and size (see RAW_PARSE_ALLOWED for the exceptions).
    files: [...SIZED, ...GENERATED],
    ignores: ['engine/text/**', ...RAW_PARSE_ALLOWED],
    plugins: { judgeflow },
    rules: { 'judgeflow/parse-through-text': 'error' },
  },
)
