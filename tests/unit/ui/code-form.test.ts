import { describe, expect, it } from 'vitest'
import { codeSpec } from '../../../engine/steps/code/spec'
import { CODE_FORM_FIELDS, codeKindOf, envError, envText, fileError, readEnvNames, switchKind } from '../../../app/utils/code-form'
import { problemSentence } from '../../../app/utils/field-labels'

describe('the code form: which file a step calls', () => {
  it('calls Python only when a Python file is named and no module', () => {
    expect(codeKindOf({})).toBe('module')
    expect(codeKindOf({ module: 'product.ts' })).toBe('module')
    expect(codeKindOf({ python: 'product.py' })).toBe('python')
    expect(codeKindOf({ module: 'a.ts', python: 'b.py' })).toBe('module')
  })

  it('moves the file name to the other kind\'s key with that kind\'s extension, leaving the rest of the config', () => {
    expect(switchKind({ module: 'product.ts', input: { q: 1 } }, 'python')).toEqual({ module: undefined, python: 'product.py' })
    expect(switchKind({ python: 'lib/product.py' }, 'module')).toEqual({ python: undefined, module: 'lib/product.ts' })
    expect(switchKind({ module: 'product.mjs' }, 'python')).toEqual({ module: undefined, python: 'product.py' })
    expect(switchKind({ module: 'product' }, 'python')).toEqual({ module: undefined, python: 'product' })
    expect(switchKind({}, 'python')).toEqual({ module: undefined })
    expect(switchKind({ python: 'p.py' }, 'python')).toEqual({ module: undefined, python: 'p.py' })
    // Back to the kind it had: the name it had, when only the extension was changed.
    expect(switchKind({ python: 'provider.py' }, 'module', 'provider.js')).toEqual({ python: undefined, module: 'provider.js' })
    expect(switchKind({ python: 'other.py' }, 'module', 'provider.js')).toEqual({ python: undefined, module: 'other.ts' })
  })

  it('shows every field of the config schema but the imported promptfoo call', () => {
    // The spec's schema is typed as any schema; it is the strict object it was made as.
    const keys = Object.keys((codeSpec.configSchema as unknown as { shape: Record<string, unknown> }).shape)
    expect([...CODE_FORM_FIELDS].filter(key => key !== 'config').sort()).toEqual(keys.filter(key => key !== 'promptfoo').sort())
  })
})

describe('the code form: variables and problems', () => {
  it('reads variable names separated by commas or spaces, each once; empty is none', () => {
    expect(readEnvNames(' API_KEY, REGION  API_KEY,')).toEqual({ ok: true, value: ['API_KEY', 'REGION'] })
    expect(readEnvNames(' , ')).toEqual({ ok: true, value: undefined })
    expect(envText(['A', 'B'])).toBe('A, B')
    expect(envText(undefined)).toBe('')
  })

  it('says a missing file beside the file name in the engine\'s words, and a file\'s own problem before it', () => {
    const whole = 'give module (a JavaScript or TypeScript file) or python (a Python file): the function the step calls'
    expect(fileError({ config: whole }, 'module')).toBe('Give module (a JavaScript or TypeScript file) or python (a Python file): the function the step calls.')
    expect(fileError({ config: whole, module: 'Module file must name a .js file.' }, 'module')).toBe('Module file must name a .js file.')
    // Both named (an import, or a hand-written file): the engine's problem is on python, shown beside the module shown.
    expect(fileError({ python: 'Python file: give module or python, not both.' }, 'module')).toBe('Python file: give module or python, not both.')
    expect(fileError({ timeout_ms: 'x' }, 'python')).toBeUndefined()
  })

  it('names a variable the engine refuses by its name', () => {
    const sentence = problemSentence('code', 'config.env[1]', 'is not an environment variable\'s name')
    expect(sentence).toBe('Variable 2 is not an environment variable\'s name.')
    expect(envError({ 'env[1]': sentence }, ['API_KEY', '2FA'])).toBe('"2FA" is not an environment variable\'s name.')
    expect(envError({ env: 'Environment variables can have at most 64.' }, [])).toBe('Environment variables can have at most 64.')
    expect(envError({ module: 'x' }, [])).toBeUndefined()
  })
})
