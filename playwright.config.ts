import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// The Chromium `npm test` found or installed (scripts/browser.mjs); run directly, Debian's Chromium
// where it is installed, Playwright's own browser elsewhere.
const systemChromium = process.env.E2E_CHROMIUM
  ? (process.env.E2E_CHROMIUM_SYSTEM ? process.env.E2E_CHROMIUM : undefined)
  : existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined
const port = Number(process.env.E2E_PORT ?? 3210)
/** A second app, whose OpenAI and Anthropic endpoints are the fake LLM server (tests/e2e/serve-with-llm.ts). */
const llmAppPort = Number(process.env.E2E_LLM_PORT ?? port + 1)
// The tests that need it read its address from here (the config is loaded in every worker).
process.env.E2E_LLM_APP = `http://127.0.0.1:${llmAppPort}`

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  timeout: 30_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    viewport: { width: 1280, height: 720 },
    launchOptions: systemChromium
      ? {
          executablePath: systemChromium,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        }
      : {},
  },
  webServer: [
    {
      command: `node tests/e2e/serve.mjs`,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      // http steps may call the endpoints the tests run on loopback, and read one variable (http-step.spec.ts);
      // code steps run, calling the modules in tests/e2e/configs (code-step.spec.ts; no other spec uses the config folder).
      env: {
        PORT: String(port), JUDGEFLOW_HTTP_ALLOW: '127.0.0.1', JUDGEFLOW_HTTP_ENV: 'E2E_API_KEY', E2E_API_KEY: 'e2e-secret-key-value',
        JUDGEFLOW_ALLOW_CODE: '1', JUDGEFLOW_CONFIG_DIR: 'tests/e2e/configs',
      },
      timeout: 30_000,
    },
    {
      command: `node --import tsx tests/e2e/serve-with-llm.ts`,
      url: `http://127.0.0.1:${llmAppPort}/api/health`,
      reuseExistingServer: false,
      env: { PORT: String(llmAppPort) },
      timeout: 30_000,
    },
  ],
})
