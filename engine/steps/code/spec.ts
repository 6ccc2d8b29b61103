import { z } from 'zod'
import { ENV_NAME } from '../../schema/common'
import { strictObject } from '../../schema/unknown-keys'
import { defineStepSpec, type StepConfig } from '../types'
import { builtinStepMeta } from '../step-meta'
import { codeOutputs } from './outputs'

/** The longest a code step's `timeout_ms` may be. */
export const MAX_CODE_STEP_TIMEOUT_MS = 600_000
/** The files `module` may name: JavaScript or TypeScript, an ES module or CommonJS. */
export const MODULE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i

/** A file in the config folder, fixed in the workflow: a run's input never chooses which code runs. */
const fileSchema = (kind: RegExp, what: string) => z.string().min(1, 'is empty').max(1024)
  .refine(path => !path.includes('{{'), 'cannot hold a {{reference}}: name a file in the config folder (JUDGEFLOW_CONFIG_DIR)')
  .refine(path => kind.test(path), `must name ${what}`)

export const codeSpec = defineStepSpec({
  type: 'code',
  label: builtinStepMeta.code.label,
  description: 'Calls your own function — a JavaScript/TypeScript module or a Python file — in the sandbox, and outputs what it returns.',
  configSchema: strictObject({
    /** A module in the config folder exporting `default async function (input, context)` or `function call(input, context)`. */
    module: fileSchema(MODULE_FILE, 'a .js, .mjs, .cjs, .ts, .mts, .cts, .jsx or .tsx file').optional(),
    /** A Python file in the config folder defining `def call(input, context)`. */
    python: fileSchema(/\.py$/i, 'a .py file').optional(),
    /** What the function gets as `input`, references rendered (`{ question: '{{input.question}}' }`); the run input when absent. */
    input: z.unknown().optional(),
    /** The call's time limit; JUDGEFLOW_CODE_TIMEOUT_MS when absent. */
    timeout_ms: z.number().int().min(1).max(MAX_CODE_STEP_TIMEOUT_MS).optional(),
    /** Whether the code may use the network: never unless this says `true` (the sandbox has no network by default). */
    network: z.boolean().default(false),
    /** The environment variables the code sees (only names JUDGEFLOW_HTTP_ENV or `settings.env` list); it sees no other. */
    env: z.array(z.string().regex(ENV_NAME, 'is not an environment variable\'s name')).max(64).optional(),
    /**
     * The file is a promptfoo custom provider, called as promptfoo calls it (an imported promptfoo
     * config): `provider` — a JavaScript class's `callApi(prompt, context)`, a Python file's
     * `call_api(prompt, options, context)` (or `function`); `exec` — the file run as the program
     * with `argv`, then the prompt, the options and the context as JSON, its standard output the
     * answer. The output is `{ text }`: the provider's `output` (JSON text when not a string).
     */
    promptfoo: strictObject({
      call: z.enum(['provider', 'exec']),
      prompt: z.string(),
      /** The provider's options as promptfoo gives them (`id`, `label`, `config`). */
      options: z.record(z.string(), z.unknown()).default({}),
      function: z.string().regex(/^[A-Za-z_]\w*$/, 'must be a Python function\'s name').optional(),
      argv: z.array(z.string()).max(64).optional(),
    }).optional(),
  }).superRefine((config, ctx) => {
    if ((config.module === undefined) === (config.python === undefined)) {
      const both = config.module !== undefined
      ctx.addIssue({
        code: 'custom', path: both ? ['python'] : [],
        message: both ? 'give module or python, not both: a code step calls one function' : 'give module (a JavaScript or TypeScript file) or python (a Python file): the function the step calls',
      })
    }
  }),
  textField: 'text',
  outputs: codeOutputs,
})
export type CodeStepConfig = StepConfig<typeof codeSpec>
