import stylistic from '@stylistic/eslint-plugin'
import vue from 'eslint-plugin-vue'
import globals from 'globals'
import tseslint from 'typescript-eslint'

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
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          {
            regex: '^(nuxt|nitropack|h3|vue|@vue|pinia|@pinia|drizzle-orm|better-sqlite3|#imports|#app|#internal|~|~~|@)(/.*)?$',
            message: 'engine/ is framework-free: no Nuxt, Nitro, h3, Vue, database driver or app aliases.',
          },
          {
            regex: '^(\\.\\./)+(server|db|app|pages|components|cli)(/.*)?$',
            message: 'engine/ imports nothing from the server, the database, the web app or the CLI: they pass it what it needs.',
          },
        ],
      }],
    },
  },
)
