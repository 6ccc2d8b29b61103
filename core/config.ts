/**
 * judgeflow's configuration, read from the environment once and checked: the only module that
 * reads `process.env`. Every other module — engine, db, server, CLI — is handed the values it
 * needs. A wrong value stops the start with one sentence naming the variable.
 */
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { z } from 'zod'
import { DEFAULT_TIME_LIMIT_MS, DEFAULT_WORKERS } from '../engine/evaluator/worker/pool'
import { DEFAULT_MAX_QUEUED_EVALUATIONS } from '../engine/evaluator/worker/queue-limit'
import { DEFAULT_MAX_IMPORTS_PER_CLIENT, DEFAULT_MAX_QUEUED_IMPORTS } from '../engine/datasets/import-worker/queue-limits'
import { DEFAULT_MAX_EVALUATION_CALLS, DEFAULT_MAX_EVALUATION_COST_USD, type EvaluationLimits } from '../engine/evaluator/call-budget'
import { DEFAULT_STORAGE_LIMITS, type StorageLimits } from '../engine/executor/size-limits'
import { defaultRetryPolicy, type RetryPolicy } from '../engine/providers/retry'
import { DEFAULT_TRACE_CACHE, MAX_TRACE_CACHE_SIZE, type TraceCacheSettings } from '../engine/trace/shared-cache'
import { DEFAULT_MAX_JSON_DEPTH, MAX_JSON_DEPTH_CEILING, parseJsonWithin } from '../engine/text/safe-json'
import { DEFAULT_ALLOW_CODE, DEFAULT_CODE_MAX_PROCESSES, DEFAULT_CODE_MEMORY_MB, DEFAULT_CODE_TIMEOUT_MS, MIN_CODE_MAX_PROCESSES, MIN_CODE_MEMORY_MB, type IsolationMode } from '../engine/sandbox/limits'
import { DEFAULT_LEASE_MS, DEFAULT_MAX_RESUMES } from './runs/leases'

/** Runs one worker process executes at once unless told. */
export const DEFAULT_WORKER_CONCURRENCY = 8
import { variable, type Env } from './config-fields'
import { readAccess, type AccessSettings } from './access-config'
import { readOtlpConfig, type OtlpConfig } from './online-config'
import { parseAllowPatterns } from '../engine/http/address-policy'
import type { HttpAccess } from '../engine/http/access'
import { ENV_NAME } from '../engine/schema/common'

export type { Env } from './config-fields'

export { DEFAULT_SESSION_TTL_HOURS, MIN_TOKEN_LENGTH } from './access-config'
/** A request body must have arrived this long after its headers (JUDGEFLOW_BODY_TIMEOUT_MS). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000
/** The server's port when PORT is unset, as Nitro's. */
export const DEFAULT_PORT = 3000
/**
 * The SQLite file when JUDGEFLOW_DB is unset, in the working directory: where `npx judgeflow serve`
 * keeps it for a project that installed the package (a source checkout's `npm start` names its own `data/`).
 */
export const DEFAULT_DB_PATH = './.judgeflow/judgeflow.db'
/** The LLM response cache's bound when JUDGEFLOW_CACHE_MAX_ENTRIES is unset. */
export const DEFAULT_CACHE_MAX_ENTRIES = 10_000
/** How often the retention prune runs (JUDGEFLOW_RETENTION_INTERVAL_MS): every 10 minutes. */
export const DEFAULT_RETENTION_INTERVAL_MS = 600_000
/** The judges a default may name: a provider's model, or the offline judge. */
const JUDGE_PATTERN = /^(openai|anthropic):\S+$|^local:heuristic$/

/** The keys and endpoints of the LLM providers; never stored or returned. */
export interface ProviderSettings {
  OPENAI_API_KEY?: string
  OPENAI_BASE_URL?: string
  ANTHROPIC_API_KEY?: string
  ANTHROPIC_BASE_URL?: string
}

export interface JudgeflowConfig {
  /** JUDGEFLOW_TOKEN, JUDGEFLOW_SESSION_TTL_HOURS and JUDGEFLOW_USERS (core/access-config.ts), with the address and limits. */
  server: AccessSettings & {
    /** The address the server listens on (HOST or NITRO_HOST); empty for every interface. */
    host: string
    /** The port the server listens on (PORT or NITRO_PORT; DEFAULT_PORT when unset). */
    port: number
    /** JUDGEFLOW_ALLOWED_HOSTS: host names answered besides loopback, lower case. */
    allowedHosts: string[]
    /** JUDGEFLOW_MAX_BODY_BYTES: request bodies over this are refused with 413. */
    maxBodyBytes: number
    /** JUDGEFLOW_BODY_TIMEOUT_MS: a request body still arriving this long after its headers is answered 408 and its connection closed. */
    bodyTimeoutMs: number
    /** JUDGEFLOW_MAX_SSE_PER_CLIENT: event streams one client address may hold open at once. */
    maxStreamsPerClient: number
    /** JUDGEFLOW_MAX_QUEUED_IMPORTS: imports (dataset text or cases, promptfoo configs) that may wait for the import worker; beyond, 429. */
    maxQueuedImports: number
    /** JUDGEFLOW_MAX_IMPORTS_PER_CLIENT: imports one client address may have waiting or being read at once; beyond, 429. */
    maxImportsPerClient: number
  }
  /** JUDGEFLOW_MAX_JSON_DEPTH: nesting levels a JSON value from a user may have (at most 1,000). */
  maxJsonDepth: number
  db: {
    /** JUDGEFLOW_DB; DEFAULT_DB_PATH when unset. */
    path?: string
    /** JUDGEFLOW_MIGRATIONS: the migrations folder, when not beside the code. */
    migrations?: string
    /** JUDGEFLOW_DB_SYNCHRONOUS: `full` also survives a power cut, at a cost per commit. */
    synchronous: 'normal' | 'full'
    /** JUDGEFLOW_DATABASE_URL: a `postgres://` URL puts everything in that PostgreSQL database instead of the SQLite file. */
    url?: string
  }
  runs: {
    /** JUDGEFLOW_MAX_CONCURRENT_RUNS. */
    maxConcurrent: number
    /** JUDGEFLOW_MAX_QUEUED_RUNS. */
    maxQueued: number
    /** JUDGEFLOW_RUN_LEASE_MS: how long a run's lease holds without its process's heartbeat. */
    leaseMs: number
    /** JUDGEFLOW_RUN_MAX_RESUMES: resumes in a row without a new committed step before a run is failed. */
    maxResumes: number
    /** JUDGEFLOW_SHUTDOWN_GRACE_MS: how long a stopping server lets its runs finish. */
    shutdownGraceMs: number
    /** JUDGEFLOW_WORKER (PostgreSQL): `0` for a server that only queues runs (`serve --no-worker`); else it also executes them. */
    worker: boolean
    /** JUDGEFLOW_WORKER_CONCURRENCY (PostgreSQL): runs a worker executes at once (`worker --concurrency N`, 8). */
    workerConcurrency: number
  }
  /** What the scheduled prune deletes; without JUDGEFLOW_RETENTION_DAYS and JUDGEFLOW_RETENTION_RUNS no run is deleted. */
  retention: {
    /** JUDGEFLOW_RETENTION_DAYS: finished runs older than this many days are deleted with their steps and events. */
    maxAgeDays?: number
    /** JUDGEFLOW_RETENTION_RUNS: each workflow keeps this many of its newest runs; older finished ones are deleted. */
    keepPerWorkflow?: number
    /** JUDGEFLOW_CACHE_MAX_ENTRIES: the LLM response cache keeps the entries used most recently, up to this many. */
    cacheMaxEntries: number
    /** JUDGEFLOW_RETENTION_INTERVAL_MS: the time between two prunes. */
    intervalMs: number
  }
  /** JUDGEFLOW_MAX_STEP_TEXT, JUDGEFLOW_MAX_STEP_RECORD, JUDGEFLOW_MAX_RUN_STORAGE. */
  limits: StorageLimits
  /** JUDGEFLOW_LLM_*: retries, backoff and time limit of LLM calls. */
  retry: RetryPolicy
  providers: {
    keys: ProviderSettings
    /** JUDGEFLOW_DEFAULT_JUDGE, when set. */
    defaultJudge?: string
    /**
     * JUDGEFLOW_REQUIRE_JUDGE (the CLI's --require-judge): an evaluator that names no judge is refused,
     * before any call, rather than judged by local:heuristic when no key is set.
     */
    requireJudge: boolean
    /** JUDGEFLOW_PRICES: `provider:model` → [input, output] US dollars per million tokens, before the published prices. */
    prices?: Record<string, [number, number]>
  }
  evaluation: {
    /** JUDGEFLOW_EVAL_WORKERS: worker threads for offline evaluations (0: the main thread). */
    workers: number
    /** JUDGEFLOW_EVAL_TIME_LIMIT_MS. */
    timeLimitMs: number
    /** JUDGEFLOW_MAX_QUEUED_EVALUATIONS: evaluations asked over HTTP that may wait for a worker thread; beyond, 429. */
    maxQueued: number
    /** JUDGEFLOW_MAX_EVALUATION_CALLS and JUDGEFLOW_MAX_EVALUATION_COST_USD: what one evaluation may cause. */
    limits: EvaluationLimits
    /** JUDGEFLOW_CONFIG_DIR: where evaluator steps read their config_file from, as given (./configs by default). */
    configDir: string
    /** JUDGEFLOW_METRICS_DIR and JUDGEFLOW_SCORERS_DIR: custom metrics and scorers. */
    metricsDir: string
    scorersDir: string
  }
  /** The http step: the hosts it may call and the variables its headers may read (engine/http/access.ts). */
  http: HttpAccess
  /** JUDGEFLOW_OTLP_*: the bounds of POST /v1/traces (core/online-config.ts). */
  otlp: OtlpConfig
  /** User code: `javascript` and `python` assertions, transforms. */
  code: {
    /** JUDGEFLOW_ALLOW_CODE: whether the HTTP server runs code assertions (the CLI always may). */
    allow: boolean
    /** JUDGEFLOW_CODE_TIMEOUT_MS: a run of code is killed after this long. */
    timeoutMs: number
    /** JUDGEFLOW_CODE_MEMORY_MB: the memory a run of code may use. */
    memoryMb: number
    /** JUDGEFLOW_CODE_MAX_PROCESSES: the processes and threads a run of code may have at once. */
    maxProcesses: number
    /** PATH: where python3 and bwrap are looked for. */
    searchPath: string
    /** The server runs code only in a sandbox; the CLI and the library run the person's own code without one where none is available, after saying so. */
    isolation: IsolationMode
  }
  trace: {
    /** JUDGEFLOW_TRACE_CACHE_SIZE and JUDGEFLOW_TRACE_CACHE_TTL_MS. */
    cache: TraceCacheSettings
    /** JUDGEFLOW_TRACE_CACHE_FILE: where the novelty cache is kept between starts. */
    cacheFile?: string
    /** JUDGEFLOW_EMBEDDER_MODEL: a local sentence-embedding model folder. */
    embedderModel?: string
  }
}

const wholeFrom = (min: number, max = Number.MAX_SAFE_INTEGER) => z.string().trim().transform(Number).pipe(z.number().int().min(min).max(max))
const nonNegative = z.string().transform(Number).pipe(z.number().nonnegative())
const text = z.string().trim()
/** A switch: true, false, 1, 0, yes or no, in any case. */
const yesOrNo = text.toLowerCase().pipe(z.enum(['1', 'true', 'yes', '0', 'false', 'no'])).transform(yes => ['1', 'true', 'yes'].includes(yes))

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== ''
  }
  catch {
    return false
  }
}

/**
 * The environment with the KEY=VALUE lines of an env file over it (dotenv's syntax: comments,
 * quotes, an `export` prefix). A file named for one command wins over what the shell holds.
 */
export function envWithFile(text: string, env: Env = process.env): Env {
  return { ...env, ...parseEnv(text) }
}

/** The process's environment: what `loadConfig` reads unless given another (the one place that reads it). */
export function processEnv(): Env {
  return process.env
}

/** The configuration from `env` (the process's environment by default); throws INVALID_CONFIG naming the first wrong variable. */
export function loadConfig(env: Env = process.env): JudgeflowConfig {
  const read = variable(env)
  const whole = (name: string, fallback: number, min = 1) => read(name, wholeFrom(min), fallback, `${name} must be a whole number of at least ${min} (it is "{raw}"); unset it for the default, ${fallback}.`)
  const traceWhole = (name: string, fallback: number, max: number, unit: string) => read(name, wholeFrom(1, max), fallback, `${name} must be a whole number of ${unit} from 1 to ${max}; unset it for the default (${fallback}).`)
  const retryMs = (name: string, fallback: number) => read(name, nonNegative, fallback, `${name} must be a non-negative number, not "{raw}"`, { blank: 'empty' })
  const access = readAccess(read)
  const depth = read('JUDGEFLOW_MAX_JSON_DEPTH', wholeFrom(1, Number.MAX_SAFE_INTEGER), DEFAULT_MAX_JSON_DEPTH,
    `JUDGEFLOW_MAX_JSON_DEPTH must be a whole number of nesting levels of at least 1 (it is "{raw}"); values above ${MAX_JSON_DEPTH_CEILING} count as ${MAX_JSON_DEPTH_CEILING}.`)
  const workers = read('JUDGEFLOW_EVAL_WORKERS', wholeFrom(0), DEFAULT_WORKERS, 'JUDGEFLOW_EVAL_WORKERS must be a whole number of worker threads (0 runs evaluations on the main thread), not "{raw}".')
  const timeLimitMs = read('JUDGEFLOW_EVAL_TIME_LIMIT_MS', wholeFrom(1), DEFAULT_TIME_LIMIT_MS, 'JUDGEFLOW_EVAL_TIME_LIMIT_MS must be a whole number of milliseconds above 0, not "{raw}".')
  const defaultJudge = read('JUDGEFLOW_DEFAULT_JUDGE', text.regex(JUDGE_PATTERN), undefined,
    'JUDGEFLOW_DEFAULT_JUDGE must name a judge as provider:model — openai:<model>, anthropic:<model> or local:heuristic — not "{raw}".', { blank: 'empty' })
  const prices = read('JUDGEFLOW_PRICES', z.string().transform((raw, ctx) => {
    try {
      return parseJsonWithin(raw, DEFAULT_MAX_JSON_DEPTH)
    }
    catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' })
      return z.NEVER
    }
  }).pipe(z.record(z.string().regex(/^[a-z][a-z0-9_-]*:\S+$/), z.tuple([z.number().min(0), z.number().min(0)]))), undefined,
  'JUDGEFLOW_PRICES must be a JSON object of "provider:model": [input, output] US dollars per million tokens, e.g. {"openai:llama3.1": [0.2, 0.6]}, not "{raw}".', { blank: 'empty' })
  const synchronous = read('JUDGEFLOW_DB_SYNCHRONOUS', text.toLowerCase().pipe(z.enum(['normal', 'full'])), 'normal', 'JUDGEFLOW_DB_SYNCHRONOUS must be "normal" or "full", not "{raw}".')
  const optional = (name: string) => read(name, z.string(), undefined, '', { blank: 'empty' })
  // The URL may carry a password: the message never repeats it.
  const databaseUrl = read('JUDGEFLOW_DATABASE_URL', text.refine(isPostgresUrl), undefined,
    'JUDGEFLOW_DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@localhost:5432/judgeflow; unset it to keep the SQLite file (JUDGEFLOW_DB).', { blank: 'empty' })
  const retentionDays = read('JUDGEFLOW_RETENTION_DAYS', z.string().trim().transform(Number).pipe(z.number().gt(0)), undefined,
    'JUDGEFLOW_RETENTION_DAYS must be a number of days above 0 (it is "{raw}"); unset it to keep every run.', { blank: 'empty' })
  const retentionRuns = read('JUDGEFLOW_RETENTION_RUNS', wholeFrom(1), undefined,
    'JUDGEFLOW_RETENTION_RUNS must be a whole number of runs of at least 1 kept per workflow (it is "{raw}"); unset it to keep every run.', { blank: 'empty' })
  const requireJudge = read('JUDGEFLOW_REQUIRE_JUDGE', yesOrNo, false,
    'JUDGEFLOW_REQUIRE_JUDGE must be true or false (or 1 or 0), not "{raw}"; set it to refuse judging by local:heuristic when no key is set.')
  const allowCode = read('JUDGEFLOW_ALLOW_CODE', yesOrNo, DEFAULT_ALLOW_CODE,
    'JUDGEFLOW_ALLOW_CODE must be true or false (or 1 or 0), not "{raw}"; unset it to refuse code assertions over HTTP.')
  const httpAllow = read('JUDGEFLOW_HTTP_ALLOW', z.string().transform((raw, ctx) => {
    const patterns = raw.split(',').map(p => p.trim()).filter(Boolean)
    try {
      parseAllowPatterns(patterns)
    }
    catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message })
      return z.NEVER
    }
    return patterns
  }), undefined, 'JUDGEFLOW_HTTP_ALLOW must list host patterns separated by commas (api.example.com, *.example.com, 10.0.0.0/8, ::1), not "{raw}".', { blank: 'empty' })
  const httpEnv = read('JUDGEFLOW_HTTP_ENV', z.string().transform(raw => raw.split(',').map(n => n.trim()).filter(Boolean)).pipe(z.array(z.string().regex(ENV_NAME))), [],
    'JUDGEFLOW_HTTP_ENV must list environment variable names separated by commas (API_TOKEN,STAGING_KEY), not "{raw}".')
  const portVariable = env.NITRO_PORT ? 'NITRO_PORT' : 'PORT'
  const port = read(portVariable, wholeFrom(0, 65_535), DEFAULT_PORT,
    `${portVariable} must be a port number from 0 to 65535 (it is "{raw}"); unset it to listen on ${DEFAULT_PORT}.`)
  return {
    server: {
      host: env.NITRO_HOST || env.HOST || '',
      port,
      ...access,
      allowedHosts: (env.JUDGEFLOW_ALLOWED_HOSTS ?? '').split(',').map(h => h.trim().toLowerCase()).filter(Boolean),
      maxBodyBytes: whole('JUDGEFLOW_MAX_BODY_BYTES', 1024 * 1024),
      bodyTimeoutMs: whole('JUDGEFLOW_BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS),
      maxStreamsPerClient: whole('JUDGEFLOW_MAX_SSE_PER_CLIENT', 20),
      maxQueuedImports: whole('JUDGEFLOW_MAX_QUEUED_IMPORTS', DEFAULT_MAX_QUEUED_IMPORTS),
      maxImportsPerClient: whole('JUDGEFLOW_MAX_IMPORTS_PER_CLIENT', DEFAULT_MAX_IMPORTS_PER_CLIENT),
    },
    maxJsonDepth: Math.min(depth, MAX_JSON_DEPTH_CEILING),
    db: { path: optional('JUDGEFLOW_DB'), migrations: optional('JUDGEFLOW_MIGRATIONS'), synchronous, url: databaseUrl },
    runs: {
      maxConcurrent: whole('JUDGEFLOW_MAX_CONCURRENT_RUNS', 16),
      maxQueued: whole('JUDGEFLOW_MAX_QUEUED_RUNS', 1000),
      leaseMs: whole('JUDGEFLOW_RUN_LEASE_MS', DEFAULT_LEASE_MS),
      maxResumes: whole('JUDGEFLOW_RUN_MAX_RESUMES', DEFAULT_MAX_RESUMES),
      shutdownGraceMs: whole('JUDGEFLOW_SHUTDOWN_GRACE_MS', 10_000, 0),
      worker: whole('JUDGEFLOW_WORKER', 1, 0) !== 0,
      workerConcurrency: whole('JUDGEFLOW_WORKER_CONCURRENCY', DEFAULT_WORKER_CONCURRENCY),
    },
    retention: {
      maxAgeDays: retentionDays,
      keepPerWorkflow: retentionRuns,
      cacheMaxEntries: whole('JUDGEFLOW_CACHE_MAX_ENTRIES', DEFAULT_CACHE_MAX_ENTRIES),
      intervalMs: whole('JUDGEFLOW_RETENTION_INTERVAL_MS', DEFAULT_RETENTION_INTERVAL_MS, 1000),
    },
    limits: {
      stepText: whole('JUDGEFLOW_MAX_STEP_TEXT', DEFAULT_STORAGE_LIMITS.stepText),
      stepRecord: whole('JUDGEFLOW_MAX_STEP_RECORD', DEFAULT_STORAGE_LIMITS.stepRecord),
      run: whole('JUDGEFLOW_MAX_RUN_STORAGE', DEFAULT_STORAGE_LIMITS.run),
    },
    retry: {
      maxRetries: retryMs('JUDGEFLOW_LLM_MAX_RETRIES', defaultRetryPolicy.maxRetries),
      baseDelayMs: retryMs('JUDGEFLOW_LLM_RETRY_BASE_MS', defaultRetryPolicy.baseDelayMs),
      maxDelayMs: retryMs('JUDGEFLOW_LLM_RETRY_MAX_MS', defaultRetryPolicy.maxDelayMs),
      maxRetryAfterMs: retryMs('JUDGEFLOW_LLM_MAX_RETRY_AFTER_MS', defaultRetryPolicy.maxRetryAfterMs),
      callTimeoutMs: Math.min(2_147_483_647, retryMs('JUDGEFLOW_LLM_TIMEOUT_MS', defaultRetryPolicy.callTimeoutMs)),
    },
    providers: {
      keys: {
        OPENAI_API_KEY: optional('OPENAI_API_KEY'), OPENAI_BASE_URL: optional('OPENAI_BASE_URL'),
        ANTHROPIC_API_KEY: optional('ANTHROPIC_API_KEY'), ANTHROPIC_BASE_URL: optional('ANTHROPIC_BASE_URL'),
      },
      defaultJudge,
      requireJudge,
      ...(prices ? { prices } : {}),
    },
    evaluation: {
      workers,
      timeLimitMs,
      maxQueued: whole('JUDGEFLOW_MAX_QUEUED_EVALUATIONS', DEFAULT_MAX_QUEUED_EVALUATIONS),
      limits: {
        maxCalls: whole('JUDGEFLOW_MAX_EVALUATION_CALLS', DEFAULT_MAX_EVALUATION_CALLS),
        maxCostUsd: read('JUDGEFLOW_MAX_EVALUATION_COST_USD', z.string().trim().transform(Number).pipe(z.number().gt(0)), DEFAULT_MAX_EVALUATION_COST_USD,
          `JUDGEFLOW_MAX_EVALUATION_COST_USD must be a number of US dollars above 0 (it is "{raw}"); unset it for the default, ${DEFAULT_MAX_EVALUATION_COST_USD}.`),
      },
      configDir: optional('JUDGEFLOW_CONFIG_DIR') ?? 'configs',
      metricsDir: resolve(env.JUDGEFLOW_METRICS_DIR ?? 'metrics'),
      scorersDir: resolve(env.JUDGEFLOW_SCORERS_DIR ?? 'scorers'),
    },
    http: { policy: { guard: true, ...(httpAllow ? { allow: httpAllow } : {}) }, env: httpEnv, workflowEnv: false, read: name => env[name] },
    otlp: readOtlpConfig(read),
    code: {
      allow: allowCode,
      timeoutMs: whole('JUDGEFLOW_CODE_TIMEOUT_MS', DEFAULT_CODE_TIMEOUT_MS),
      memoryMb: whole('JUDGEFLOW_CODE_MEMORY_MB', DEFAULT_CODE_MEMORY_MB, MIN_CODE_MEMORY_MB),
      maxProcesses: whole('JUDGEFLOW_CODE_MAX_PROCESSES', DEFAULT_CODE_MAX_PROCESSES, MIN_CODE_MAX_PROCESSES),
      searchPath: env.PATH ?? '',
      isolation: 'require',
    },
    trace: {
      cache: {
        maxElements: traceWhole('JUDGEFLOW_TRACE_CACHE_SIZE', DEFAULT_TRACE_CACHE.maxElements, MAX_TRACE_CACHE_SIZE, 'traces'),
        ttlMs: traceWhole('JUDGEFLOW_TRACE_CACHE_TTL_MS', DEFAULT_TRACE_CACHE.ttlMs, Number.MAX_SAFE_INTEGER, 'milliseconds'),
      },
      cacheFile: optional('JUDGEFLOW_TRACE_CACHE_FILE'),
      embedderModel: optional('JUDGEFLOW_EMBEDDER_MODEL'),
    },
  }
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
/** 127.0.0.0/8 written as four decimal octets: nothing a DNS name could also be. */
const LOOPBACK_V4 = new RegExp(`^127(?:\\.${OCTET}){3}$`)
/** ::1, and 127.0.0.0/8 mapped into IPv6, in the canonical form URL parsing gives (`::ffff:7f00:1`). */
const LOOPBACK_V6 = /^(?:::1|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})$/

/**
 * Whether an IP address, as a socket reports it (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`) or in
 * brackets, is this machine's loopback. Only literal addresses: a name is never one.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const a = address.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (LOOPBACK_V4.test(a)) return true
  if (!a.includes(':')) return false
  try {
    return LOOPBACK_V6.test(new URL(`http://[${a}]/`).hostname.slice(1, -1))
  }
  catch {
    return false
  }
}

/**
 * Whether a host name (a Host header's, HOST) can only mean this machine: a literal loopback
 * address or `localhost`. A DNS name that merely starts with `127.` can point anywhere, or be
 * rebound to this machine by a web page.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  return host?.toLowerCase() === 'localhost' || isLoopbackAddress(host)
}

/** Why a server with this configuration must not start (it would serve other machines without a token), or undefined. */
export function accessProblem(config: JudgeflowConfig): string | undefined {
  const { host, token } = config.server
  if (isLoopbackHost(host) || token) return undefined
  return `it would listen on ${host || 'every interface'} without JUDGEFLOW_TOKEN. Set JUDGEFLOW_TOKEN to require a token, or HOST=127.0.0.1 to serve this machine only.`
}

/**
 * The settings of a person running their own suite — the CLI, the library's runDataset — rather
 * than a server others send workflows to: their code runs (in a sandbox where one is available, else
 * with a note), their http steps call any host (only JUDGEFLOW_HTTP_ALLOW's when it is set), and
 * their workflow's `settings.env` adds the variables its steps may read.
 */
export function ownSuiteConfig(config: JudgeflowConfig): JudgeflowConfig {
  return {
    ...config,
    code: { ...config.code, allow: true, isolation: 'prefer' },
    http: { ...config.http, policy: { ...config.http.policy, guard: !!config.http.policy.allow }, workflowEnv: true },
  }
}
