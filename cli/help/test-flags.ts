import { REQUIRE_JUDGE_FLAG, type Flags } from './flag-spec'

/** `judgeflow test`'s flags that choose the cases and how they run, as promptfoo's `eval` names them (cli/test-flags.ts reads them). */
export const RUN_FLAGS = {
  'concurrency': { type: 'string', value: 'N', help: 'cases run at once (1–64)' },
  'max-concurrency': { type: 'string', value: 'N', help: 'another name for --concurrency' },
  'filter-pattern': { type: 'string', value: '<regex>', help: 'only the cases whose id (a promptfoo test: its name) matches' },
  'filter-first-n': { type: 'string', value: 'N', help: 'only the first N cases' },
  'filter-sample': { type: 'string', value: 'N', help: 'N cases drawn at random' },
  'seed': { type: 'string', value: 'S', help: 'the seed of --filter-sample\'s draw, to draw the same cases again' },
  'filter-failing': { type: 'string', value: '<report.json>', help: 'only the cases that failed or errored in that report' },
  'var': { type: 'string', multiple: true, value: 'k=v', help: 'set input field k to v in every case (repeatable)' },
  'env-file': { type: 'string', value: '<file>', help: 'read KEY=VALUE lines (keys, settings) before the run' },
  'delay': { type: 'string', value: '<ms>', help: 'wait between cases (one at a time unless --concurrency)' },
  'no-cache': { type: 'boolean', help: 'call the models again rather than reuse cached answers' },
} as const satisfies Flags

/** Every flag of `judgeflow test`. */
export const TEST_FLAGS = {
  'dataset': { type: 'string', value: '<file>', help: 'the cases: .csv, .jsonl, .json or .yaml' },
  'config': { type: 'string', value: '<evaluator.json|.toml>', help: 'judge each case with this evaluator config alone (no workflow)' },
  ...RUN_FLAGS,
  'repeat': { type: 'string', value: 'N', help: 'run each case N times (1–20): flaky cases, pass^N and pass@N' },
  'min-pass-rate': { type: 'string', value: 'R', help: 'gate: the share of cases that must pass (default 1: every case)' },
  'min-kappa': { type: 'string', value: 'K', help: 'gate: Cohen\'s κ of the judge against the cases\' expected verdicts' },
  'baseline': { type: 'string', value: '<report.json>', help: 'compare with an earlier --report of the same dataset' },
  'no-regressions': { type: 'boolean', help: 'gate: no case that passed in --baseline fails now' },
  'max-errors': { type: 'string', value: 'N', help: 'errored cases allowed before exit 2 (default 0)' },
  'max-flaky': { type: 'string', value: 'S', help: 'gate: the share of flaky cases allowed (with --repeat 2 or more)' },
  'max-cost': { type: 'string', value: 'USD', help: 'budget: refuse a run estimated above it, stop when it is spent' },
  'force': { type: 'boolean', help: 'with --max-cost: start anyway, running the cases the budget pays for' },
  'require-calibration': { type: 'string', value: '<dataset>', help: 'exit 2 unless the judge\'s calibration against that labelled dataset reaches --min-kappa' },
  'min-kappa-lower': { type: 'string', value: 'K', help: 'with --require-calibration: the lower bound the calibration κ\'s interval must reach' },
  ...REQUIRE_JUDGE_FLAG,
  'report': { type: 'string', value: '<out.json>', help: 'write the whole report as JSON' },
  'junit': { type: 'string', value: '<out.xml>', help: 'write a JUnit XML report (CI test results)' },
  'html': { type: 'string', value: '<out.html>', help: 'write a self-contained HTML report' },
  'csv': { type: 'string', value: '<out.csv>', help: 'write each case\'s result as a CSV row' },
  'jsonl': { type: 'string', value: '<out.jsonl>', help: 'write each case\'s result as a JSON line' },
  'markdown': { type: 'boolean', help: 'print the report as Markdown (a CI job summary, a pull request comment)' },
  'score-step': { type: 'string', value: '<node id>', help: 'the evaluator step whose score is a case\'s score (default: the last that ran)' },
  'db': { type: 'string', value: '<path>', help: 'keep the dataset and its runs in this SQLite file (default: in memory)' },
  'grader': { type: 'string', value: '<provider:model>', help: 'the judge model of a promptfoo config\'s model-graded assertions' },
  'skip-unsupported': { type: 'boolean', help: 'run a promptfoo config whose assertions judgeflow cannot all run, erroring those cases' },
  'outputs': { type: 'string', value: '<recorded.jsonl>', help: 'judge recorded outputs (one per case id) instead of generating them' },
  'output-step': { type: 'string', value: '<node id>', help: 'the workflow step the recorded outputs stand in for' },
  'assertions': { type: 'string', value: '<asserts.yaml>', help: 'promptfoo assertions to judge --model-outputs with' },
  'model-outputs': { type: 'string', value: '<outputs.json>', help: 'promptfoo\'s recorded outputs, judged by --assertions' },
} as const satisfies Flags
