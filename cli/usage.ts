/**
 * Every command's usage line, apart from the commands themselves: `judgeflow --help` prints them
 * without loading any command's code.
 */
export const DB_USAGE = 'judgeflow db copy --from <sqlite file> --to <postgres url>'
export const IMPORT_USAGE = 'judgeflow import promptfoo <promptfooconfig.yaml> --out <folder> [--grader <provider:model>] [--name <dataset name>] [--skip-unsupported]'
export const SERVE_USAGE = 'judgeflow serve [--port N] [--host <host>] [--db <path>] [--no-worker]   (the web app and API; on PostgreSQL also a worker unless --no-worker)'
/** The flags that choose a test run's cases and pace it (cli/test-flags.ts reads them). */
export const RUN_FLAGS_USAGE = '[--concurrency|--max-concurrency N] [--filter-pattern <regex>] [--filter-first-n N] [--filter-sample N [--seed S]]'
  + ' [--filter-failing <report.json>] [--var k=v]… [--env-file <file>] [--delay <ms>] [--no-cache]'
export const TEST_USAGE = 'judgeflow test <workflow.json> --dataset <file> | judgeflow test --config <evaluator.json|.toml> --dataset <file> | judgeflow test <promptfooconfig.yaml> [--skip-unsupported]'
  + ` [--grader <provider:model>] ${RUN_FLAGS_USAGE} [--repeat N]`
  + ' [--min-pass-rate R] [--min-kappa K] [--baseline <report.json> --no-regressions] [--max-errors N] [--max-flaky S] [--max-cost USD [--force]] [--require-calibration <dataset> --min-kappa K] [--require-judge]'
  + ' [--report <out.json>] [--junit <out.xml>] [--html <out.html>] [--csv <out.csv>] [--jsonl <out.jsonl>] [--markdown] [--score-step <node id>] [--db <path>]'
  + ' [--outputs <recorded.jsonl> [--output-step <node id>]] | judgeflow test [<promptfooconfig.yaml>] --assertions <asserts.yaml> --model-outputs <outputs.json>'
export const TRACES_USAGE = 'judgeflow traces import <otlp.json|.jsonl> [--db <path>]   (spans as POST /v1/traces takes them, decided by the online rules)'
export const WORKER_USAGE = 'judgeflow worker [--concurrency N] [--nice N]   (PostgreSQL: executes queued runs at a lower CPU priority, nice 10 unless told; SIGTERM drains)'
export const REVIEW_USAGE = 'judgeflow review export <queue> [--db <path>] [--format jsonl|csv]   (the items people agree on, with the consensus and the expected verdict and score)'
