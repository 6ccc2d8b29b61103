import { describe, expect, it } from 'vitest'
import { accessProblem, loadConfig } from '../../../core'
import { envWithFile } from '../../../core/config'
import { DEFAULT_MAX_JSON_DEPTH, MAX_JSON_DEPTH_CEILING } from '../../../engine/text/safe-json'

describe('the configuration', () => {
  it('has a default for every variable', () => {
    const config = loadConfig({})
    expect(config.runs).toEqual({
      maxConcurrent: 16, maxQueued: 1000, leaseMs: 15_000, maxResumes: 2, shutdownGraceMs: 10_000, worker: true, workerConcurrency: 8,
    })
    expect(config.limits).toEqual({ stepText: 1_000_000, stepRecord: 4_000_000, run: 32_000_000 })
    expect(config.retry).toEqual({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000, callTimeoutMs: 120_000 })
    expect(config.server).toMatchObject({ host: '', allowedHosts: [], maxBodyBytes: 1024 * 1024, maxStreamsPerClient: 20, sessionTtlMs: 12 * 3_600_000 })
    expect(config.db).toEqual({ path: undefined, migrations: undefined, synchronous: 'normal' })
    expect(config.evaluation).toMatchObject({ workers: 2, timeLimitMs: 10_000, configDir: 'configs' })
    expect(config.providers).toEqual({ keys: {}, defaultJudge: undefined, requireJudge: false })
  })

  it('stops at a wrong value with one sentence naming the variable', () => {
    expect(() => loadConfig({ JUDGEFLOW_RUN_LEASE_MS: '15s' })).toThrow('JUDGEFLOW_RUN_LEASE_MS must be a whole number of at least 1 (it is "15s"); unset it for the default, 15000.')
    expect(() => loadConfig({ JUDGEFLOW_MAX_CONCURRENT_RUNS: 'many' })).toThrow('JUDGEFLOW_MAX_CONCURRENT_RUNS must be a whole number of at least 1 (it is "many"); unset it for the default, 16.')
    expect(() => loadConfig({ JUDGEFLOW_MAX_STEP_TEXT: '1e' })).toThrow('JUDGEFLOW_MAX_STEP_TEXT must be a whole number of at least 1')
    expect(() => loadConfig({ JUDGEFLOW_LLM_MAX_RETRIES: '-1' })).toThrow('JUDGEFLOW_LLM_MAX_RETRIES must be a non-negative number, not "-1"')
    expect(() => loadConfig({ JUDGEFLOW_DEFAULT_JUDGE: 'gpt-4o' })).toThrow('JUDGEFLOW_DEFAULT_JUDGE must name a judge as provider:model — openai:<model>, anthropic:<model> or local:heuristic — not "gpt-4o".')
    expect(() => loadConfig({ JUDGEFLOW_DB_SYNCHRONOUS: 'sometimes' })).toThrow('JUDGEFLOW_DB_SYNCHRONOUS must be "normal" or "full", not "sometimes".')
    expect(() => loadConfig({ JUDGEFLOW_TOKEN: 'short' })).toThrow('JUDGEFLOW_TOKEN must be at least 32 characters long')
    expect(() => loadConfig({ JUDGEFLOW_SESSION_TTL_HOURS: '0' })).toThrow('JUDGEFLOW_SESSION_TTL_HOURS must be a number of hours above 0 and at most 8784 (default 12).')
    expect(() => loadConfig({ JUDGEFLOW_SHUTDOWN_GRACE_MS: 'soon' })).toThrow('JUDGEFLOW_SHUTDOWN_GRACE_MS must be a whole number of at least 0 (it is "soon"); unset it for the default, 10000.')
    expect(() => loadConfig({ JUDGEFLOW_WORKER_CONCURRENCY: '0' })).toThrow('JUDGEFLOW_WORKER_CONCURRENCY must be a whole number of at least 1 (it is "0"); unset it for the default, 8.')
    expect(loadConfig({ JUDGEFLOW_WORKER: '0' }).runs.worker).toBe(false)
    expect(() => loadConfig({ JUDGEFLOW_MAX_BODY_BYTES: '1MB' })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', details: { variable: 'JUDGEFLOW_MAX_BODY_BYTES' } }))
  })

  it('reads the server\'s port from PORT or NITRO_PORT, 3000 when unset, and refuses one that is not a port', () => {
    expect(loadConfig({}).server.port).toBe(3000)
    expect(loadConfig({ PORT: '8080' }).server.port).toBe(8080)
    expect(loadConfig({ PORT: '8080', NITRO_PORT: '9090' }).server.port).toBe(9090)
    expect(() => loadConfig({ PORT: 'http' })).toThrow('PORT must be a port number from 0 to 65535 (it is "http"); unset it to listen on 3000.')
    expect(() => loadConfig({ NITRO_PORT: '70000' })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', details: { variable: 'NITRO_PORT' } }))
  })

  it('takes a PostgreSQL URL from JUDGEFLOW_DATABASE_URL, and names the variable without repeating a wrong value', () => {
    expect(loadConfig({}).db.url).toBeUndefined()
    expect(loadConfig({ JUDGEFLOW_DATABASE_URL: 'postgres://jf:secret@db.internal:5432/judgeflow' }).db.url).toBe('postgres://jf:secret@db.internal:5432/judgeflow')
    expect(loadConfig({ JUDGEFLOW_DATABASE_URL: 'postgresql://localhost/judgeflow' }).db.url).toBe('postgresql://localhost/judgeflow')
    for (const wrong of ['mysql://jf:secret@localhost/judgeflow', 'localhost:5432', 'postgres://']) {
      expect(() => loadConfig({ JUDGEFLOW_DATABASE_URL: wrong })).toThrow(expect.objectContaining({
        code: 'INVALID_CONFIG', details: { variable: 'JUDGEFLOW_DATABASE_URL' },
        message: 'JUDGEFLOW_DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@localhost:5432/judgeflow; unset it to keep the SQLite file (JUDGEFLOW_DB).',
      }))
    }
  })

  it('takes a default judge that names a known provider, and the keys', () => {
    const config = loadConfig({ JUDGEFLOW_DEFAULT_JUDGE: 'anthropic:claude-3-5-haiku-latest', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: '' })
    expect(config.providers).toEqual({ keys: { OPENAI_API_KEY: 'sk-test' }, defaultJudge: 'anthropic:claude-3-5-haiku-latest', requireJudge: false })
    expect(loadConfig({ JUDGEFLOW_DEFAULT_JUDGE: 'local:heuristic' }).providers.defaultJudge).toBe('local:heuristic')
  })

  it('reads the JSON depth limit from JUDGEFLOW_MAX_JSON_DEPTH, never above the ceiling', () => {
    expect(loadConfig({}).maxJsonDepth).toBe(DEFAULT_MAX_JSON_DEPTH)
    expect(loadConfig({ JUDGEFLOW_MAX_JSON_DEPTH: '200' }).maxJsonDepth).toBe(200)
    expect(loadConfig({ JUDGEFLOW_MAX_JSON_DEPTH: '1000000' }).maxJsonDepth).toBe(MAX_JSON_DEPTH_CEILING)
    // A value that is not a number stops the start (it used to fall back to the default).
    expect(() => loadConfig({ JUDGEFLOW_MAX_JSON_DEPTH: 'deep' })).toThrow('JUDGEFLOW_MAX_JSON_DEPTH must be a whole number of nesting levels of at least 1 (it is "deep"); values above 1000 count as 1000.')
  })

  it('reads the evaluation workers\' count, time limit and queue bound, naming the variable of a wrong value', () => {
    expect(loadConfig({}).evaluation).toMatchObject({ workers: 2, timeLimitMs: 10_000 })
    expect(loadConfig({ JUDGEFLOW_EVAL_WORKERS: '0', JUDGEFLOW_EVAL_TIME_LIMIT_MS: '2500' }).evaluation).toMatchObject({ workers: 0, timeLimitMs: 2500 })
    expect(() => loadConfig({ JUDGEFLOW_EVAL_TIME_LIMIT_MS: '10s' })).toThrow('JUDGEFLOW_EVAL_TIME_LIMIT_MS must be a whole number of milliseconds above 0, not "10s".')
    expect(() => loadConfig({ JUDGEFLOW_EVAL_WORKERS: '-1' })).toThrow('JUDGEFLOW_EVAL_WORKERS must be a whole number of worker threads (0 runs evaluations on the main thread), not "-1".')
    expect(loadConfig({}).evaluation.maxQueued).toBe(16)
    expect(loadConfig({ JUDGEFLOW_MAX_QUEUED_EVALUATIONS: '3' }).evaluation.maxQueued).toBe(3)
    expect(() => loadConfig({ JUDGEFLOW_MAX_QUEUED_EVALUATIONS: '0' })).toThrow('JUDGEFLOW_MAX_QUEUED_EVALUATIONS must be a whole number of at least 1 (it is "0"); unset it for the default, 16.')
  })

  it('gives a request body JUDGEFLOW_BODY_TIMEOUT_MS (10 s) to arrive after its headers', () => {
    expect(loadConfig({}).server.bodyTimeoutMs).toBe(10_000)
    expect(loadConfig({ JUDGEFLOW_BODY_TIMEOUT_MS: '30000' }).server.bodyTimeoutMs).toBe(30_000)
    expect(() => loadConfig({ JUDGEFLOW_BODY_TIMEOUT_MS: '10s' })).toThrow('JUDGEFLOW_BODY_TIMEOUT_MS must be a whole number of at least 1 (it is "10s"); unset it for the default, 10000.')
  })

  it('bounds the imports waiting for the import worker (JUDGEFLOW_MAX_QUEUED_IMPORTS, 8) and each client\'s share of them (JUDGEFLOW_MAX_IMPORTS_PER_CLIENT, 2)', () => {
    expect(loadConfig({}).server).toMatchObject({ maxQueuedImports: 8, maxImportsPerClient: 2 })
    expect(loadConfig({ JUDGEFLOW_MAX_QUEUED_IMPORTS: '20', JUDGEFLOW_MAX_IMPORTS_PER_CLIENT: '5' }).server).toMatchObject({ maxQueuedImports: 20, maxImportsPerClient: 5 })
    expect(() => loadConfig({ JUDGEFLOW_MAX_QUEUED_IMPORTS: '0' })).toThrow('JUDGEFLOW_MAX_QUEUED_IMPORTS must be a whole number of at least 1 (it is "0"); unset it for the default, 8.')
    expect(() => loadConfig({ JUDGEFLOW_MAX_IMPORTS_PER_CLIENT: 'two' })).toThrow('JUDGEFLOW_MAX_IMPORTS_PER_CLIENT must be a whole number of at least 1 (it is "two"); unset it for the default, 2.')
  })

  it('reads the trace cache from JUDGEFLOW_TRACE_CACHE_SIZE and JUDGEFLOW_TRACE_CACHE_TTL_MS, else 1,000 for an hour', () => {
    expect(loadConfig({}).trace.cache).toEqual({ maxElements: 1000, ttlMs: 3_600_000 })
    expect(loadConfig({ JUDGEFLOW_TRACE_CACHE_SIZE: '250', JUDGEFLOW_TRACE_CACHE_TTL_MS: ' 60000 ' }).trace.cache).toEqual({ maxElements: 250, ttlMs: 60_000 })
    expect(loadConfig({ JUDGEFLOW_TRACE_CACHE_SIZE: '' }).trace.cache).toEqual({ maxElements: 1000, ttlMs: 3_600_000 })
  })

  it('names the trace cache variable when one is not a usable number', () => {
    for (const size of ['0', '-3', '2.5', 'lots', '100001']) {
      expect(() => loadConfig({ JUDGEFLOW_TRACE_CACHE_SIZE: size })).toThrow('JUDGEFLOW_TRACE_CACHE_SIZE must be a whole number of traces from 1 to 100000; unset it for the default (1000).')
    }
    expect(() => loadConfig({ JUDGEFLOW_TRACE_CACHE_TTL_MS: '1h' })).toThrow('JUDGEFLOW_TRACE_CACHE_TTL_MS must be a whole number of milliseconds from 1 to')
  })

  it('refuses to serve other machines without a token', () => {
    expect(accessProblem(loadConfig({ HOST: '127.0.0.1' }))).toBeUndefined()
    expect(accessProblem(loadConfig({ HOST: '0.0.0.0' }))).toContain('it would listen on 0.0.0.0 without JUDGEFLOW_TOKEN')
    expect(accessProblem(loadConfig({ HOST: '0.0.0.0', JUDGEFLOW_TOKEN: 'x'.repeat(32) }))).toBeUndefined()
    for (const HOST of ['localhost', '::1', '127.0.0.2']) expect(accessProblem(loadConfig({ HOST })), HOST).toBeUndefined()
    // A name that only starts with 127. can resolve to any address.
    for (const HOST of ['127.attacker.example', '127.0.0.1.nip.io']) expect(accessProblem(loadConfig({ HOST })), HOST).toContain(`it would listen on ${HOST} without JUDGEFLOW_TOKEN`)
    expect(loadConfig({ JUDGEFLOW_ALLOWED_HOSTS: 'Judge.internal, ci.example:8080' }).server.allowedHosts).toEqual(['judge.internal', 'ci.example:8080'])
  })

  it('reads the retention: no run deleted unless a day count or a run count is set, the cache bounded either way', () => {
    expect(loadConfig({}).retention).toEqual({ maxAgeDays: undefined, keepPerWorkflow: undefined, cacheMaxEntries: 10_000, intervalMs: 600_000 })
    expect(loadConfig({ JUDGEFLOW_RETENTION_DAYS: '7.5', JUDGEFLOW_RETENTION_RUNS: '100', JUDGEFLOW_CACHE_MAX_ENTRIES: '50', JUDGEFLOW_RETENTION_INTERVAL_MS: '60000' }).retention)
      .toEqual({ maxAgeDays: 7.5, keepPerWorkflow: 100, cacheMaxEntries: 50, intervalMs: 60_000 })
    expect(() => loadConfig({ JUDGEFLOW_RETENTION_DAYS: '0' })).toThrow('JUDGEFLOW_RETENTION_DAYS must be a number of days above 0 (it is "0"); unset it to keep every run.')
    expect(() => loadConfig({ JUDGEFLOW_RETENTION_RUNS: '2.5' })).toThrow('JUDGEFLOW_RETENTION_RUNS must be a whole number of runs of at least 1 kept per workflow (it is "2.5")')
    expect(() => loadConfig({ JUDGEFLOW_CACHE_MAX_ENTRIES: 'lots' })).toThrow('JUDGEFLOW_CACHE_MAX_ENTRIES must be a whole number of at least 1 (it is "lots"); unset it for the default, 10000.')
    expect(() => loadConfig({ JUDGEFLOW_RETENTION_INTERVAL_MS: '10' })).toThrow('JUDGEFLOW_RETENTION_INTERVAL_MS must be a whole number of at least 1000')
  })

  it('requires a real judge with JUDGEFLOW_REQUIRE_JUDGE, a switch like JUDGEFLOW_ALLOW_CODE', () => {
    for (const yes of ['1', 'true', 'YES']) expect(loadConfig({ JUDGEFLOW_REQUIRE_JUDGE: yes }).providers.requireJudge, yes).toBe(true)
    for (const no of ['0', 'false', '']) expect(loadConfig({ JUDGEFLOW_REQUIRE_JUDGE: no }).providers.requireJudge, no).toBe(false)
    expect(() => loadConfig({ JUDGEFLOW_REQUIRE_JUDGE: 'always' })).toThrow('JUDGEFLOW_REQUIRE_JUDGE must be true or false (or 1 or 0), not "always"')
  })

  it('refuses code assertions over HTTP unless JUDGEFLOW_ALLOW_CODE is set, and bounds each run of code in time and memory', () => {
    expect(loadConfig({}).code).toEqual({ allow: false, timeoutMs: 5000, memoryMb: 128, maxProcesses: 32, searchPath: '', isolation: 'require' })
    expect(loadConfig({ JUDGEFLOW_ALLOW_CODE: 'true', JUDGEFLOW_CODE_TIMEOUT_MS: '800', JUDGEFLOW_CODE_MEMORY_MB: '64', JUDGEFLOW_CODE_MAX_PROCESSES: '20', PATH: '/usr/bin:/bin' }).code)
      .toEqual({ allow: true, timeoutMs: 800, memoryMb: 64, maxProcesses: 20, searchPath: '/usr/bin:/bin', isolation: 'require' })
    for (const yes of ['1', 'TRUE', 'yes']) expect(loadConfig({ JUDGEFLOW_ALLOW_CODE: yes }).code.allow, yes).toBe(true)
    for (const no of ['0', 'false', 'No', '']) expect(loadConfig({ JUDGEFLOW_ALLOW_CODE: no }).code.allow, no).toBe(false)
    expect(() => loadConfig({ JUDGEFLOW_ALLOW_CODE: 'sure' })).toThrow('JUDGEFLOW_ALLOW_CODE must be true or false (or 1 or 0), not "sure"; unset it to refuse code assertions over HTTP.')
    expect(() => loadConfig({ JUDGEFLOW_CODE_TIMEOUT_MS: '5s' })).toThrow('JUDGEFLOW_CODE_TIMEOUT_MS must be a whole number of at least 1 (it is "5s"); unset it for the default, 5000.')
    expect(() => loadConfig({ JUDGEFLOW_CODE_MEMORY_MB: '8' })).toThrow('JUDGEFLOW_CODE_MEMORY_MB must be a whole number of at least 32 (it is "8"); unset it for the default, 128.')
    expect(() => loadConfig({ JUDGEFLOW_CODE_MAX_PROCESSES: '4' })).toThrow('JUDGEFLOW_CODE_MAX_PROCESSES must be a whole number of at least 16 (it is "4"); unset it for the default, 32.')
  })

  it('reads an env file as dotenv does, its values over the environment\'s', () => {
    const text = '# keys\nexport OPENAI_API_KEY="sk-from-file"\nPLAIN=3 # a comment\nEMPTY=\nQUOTED=\'a b\'\n'
    const env = envWithFile(text, { OPENAI_API_KEY: 'sk-from-shell', OTHER: 'kept' })
    expect(env).toEqual({ OPENAI_API_KEY: 'sk-from-file', OTHER: 'kept', PLAIN: '3', EMPTY: '', QUOTED: 'a b' })
    expect(loadConfig(env).providers.keys.OPENAI_API_KEY).toBe('sk-from-file')
  })
})
