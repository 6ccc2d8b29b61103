import { DB_USAGE, IMPORT_USAGE, REVIEW_USAGE, SERVE_USAGE, TRACES_USAGE, WORKER_USAGE } from '../usage'
import { REQUIRE_JUDGE_FLAG, type CommandHelp } from './flag-spec'
import { TEST_FLAGS } from './test-flags'

const KEYS = [
  ['OPENAI_API_KEY, ANTHROPIC_API_KEY', 'the judges\' and models\' keys (OPENAI_BASE_URL, ANTHROPIC_BASE_URL for other servers)'],
  ['JUDGEFLOW_REQUIRE_JUDGE=1', 'as --require-judge'],
] as const

/** Every command, its flags and its help: `judgeflow <command> --help`. */
export const COMMANDS = {
  validate: {
    summary: 'Checks a workflow file: every problem, with the node it is on; the keys its steps would miss, as warnings.',
    usage: ['judgeflow validate <workflow.json>'],
    flags: {},
    examples: [['judgeflow validate examples/quality-gate.json', 'check the example workflow']],
    exit: '0 valid, 2 invalid',
  },
  run: {
    summary: 'Runs a workflow once and prints the run as JSON: status, verdict, output and every step.',
    usage: ['judgeflow run <workflow.json> [--input <file.json> | --input-json \'<json>\'] [--db <path>] [--no-cache] [--require-judge]'],
    flags: {
      'input': { type: 'string', value: '<file.json>', help: 'the run\'s input, from a JSON file' },
      'input-json': { type: 'string', value: '\'<json>\'', help: 'the run\'s input, as JSON text' },
      'db': { type: 'string', value: '<path>', help: 'keep the run in this SQLite file (default: JUDGEFLOW_DB, else in memory)' },
      'no-cache': { type: 'boolean', help: 'call the models again rather than reuse cached answers' },
      'concurrency': { type: 'string', value: 'N', help: 'steps run at once' },
      'timeout': { type: 'string', value: '<ms>', help: 'stop the run after this long' },
      ...REQUIRE_JUDGE_FLAG,
    },
    examples: [['judgeflow run examples/quality-gate.json --input-json \'{"question":"What is a refund?"}\'', 'run the example workflow on one question']],
    env: [...KEYS, ['JUDGEFLOW_DB', 'the SQLite file runs are kept in']],
    exit: '0 succeeded with verdict pass or none, 1 verdict fail, 2 invalid input or run error',
  },
  eval: {
    summary: 'Judges one input with an evaluator config and prints the Evaluator result as JSON.',
    usage: ['judgeflow eval [--config <file.json|file.toml>] --input <file.json> [--require-judge]'],
    flags: {
      config: { type: 'string', value: '<file.json|file.toml>', help: 'the evaluator config (default: configs/evaluator.toml when it exists)' },
      input: { type: 'string', value: '<file.json>', help: 'what to judge: { content, context, reference, … }' },
      ...REQUIRE_JUDGE_FLAG,
    },
    examples: [['judgeflow eval --config examples/judge.json --input examples/eval-input.json', 'judge the example answer with the example config']],
    env: [...KEYS, ['JUDGEFLOW_CONFIG_DIR', 'the folder of configs/evaluator.toml (default ./configs)']],
    exit: '0 passed, 1 not passed, 2 invalid input or error',
  },
  test: {
    summary: 'Runs a workflow (or an evaluator config alone, or a promptfoo config) over every case of a dataset, gated.',
    usage: [
      'judgeflow test <workflow.json> --dataset <file> [options]',
      'judgeflow test --config <evaluator.json|.toml> --dataset <file> [options]',
      'judgeflow test <promptfooconfig.yaml> [options]',
      'judgeflow test [<promptfooconfig.yaml>] --assertions <asserts.yaml> --model-outputs <outputs.json> [options]',
    ],
    flags: TEST_FLAGS,
    examples: [
      ['judgeflow test examples/quality-gate.json --dataset examples/datasets/support-questions.csv --min-pass-rate 0.9', 'gate a workflow on a dataset'],
      ['judgeflow test --config judge.json --dataset answers.jsonl --junit results.xml --markdown', 'judge recorded answers, write JUnit, print Markdown'],
      ['judgeflow test examples/promptfoo/promptfooconfig.yaml', 'run a promptfoo config as promptfoo would'],
    ],
    env: [...KEYS],
    exit: '0 every gate holds, 1 a gate fails (default gate: every case passes), 2 invalid input or more errored cases than --max-errors',
  },
  import: {
    summary: 'Writes a promptfoo config\'s tests as a dataset, its assertions as an evaluator config and its prompts × providers as a workflow.',
    usage: [IMPORT_USAGE],
    flags: {
      'out': { type: 'string', value: '<folder>', help: 'the folder to write dataset.json and workflow.json (or evaluator.json) into' },
      'grader': { type: 'string', value: '<provider:model>', help: 'the judge model of the model-graded assertions' },
      'judge': { type: 'string', value: '<provider:model>', help: 'another name for --grader' },
      'name': { type: 'string', value: '<dataset name>', help: 'the dataset\'s name (default: the config\'s description, else "promptfoo")' },
      'skip-unsupported': { type: 'boolean', help: 'import even when some assertions cannot be mapped (those cases error when run)' },
    },
    examples: [['judgeflow import promptfoo examples/promptfoo/promptfooconfig.yaml --out imported/', 'import a promptfoo suite into imported/']],
    exit: '0 imported, 2 invalid input',
  },
  experiment: {
    summary: 'A prompt experiment: `report` computes a round\'s statistics from judgments; `run` runs a round end to end and reports it.',
    usage: ['judgeflow experiment report <judgments.json> [--markdown]', 'judgeflow experiment run <experiment.json|.yaml> [--markdown] [--judgments <out.json>]'],
    flags: {
      markdown: { type: 'boolean', help: 'print the report as Markdown tables (default: JSON)' },
      judgments: { type: 'string', value: '<out.json>', help: 'run: also write the round\'s judgments, for a later `experiment report`' },
    },
    examples: [
      ['judgeflow experiment run examples/experiment.yaml --markdown', 'run the example round and print its report as tables'],
      ['judgeflow experiment report examples/experiment-judgments.json', 'report on judgments written earlier'],
    ],
    env: [...KEYS],
    exit: '0 reported, 2 invalid input',
  },
  backup: {
    summary: 'Writes a consistent copy of the SQLite database, safe while the server runs.',
    usage: ['judgeflow backup <file> [--db <path>]'],
    flags: {
      db: { type: 'string', value: '<path>', help: 'the database to copy (default: JUDGEFLOW_DB, else ./.judgeflow/judgeflow.db)' },
    },
    examples: [['judgeflow backup backups/judgeflow-2026-01-31.db', 'copy the database into backups/']],
    env: [['JUDGEFLOW_DB', 'the database copied when --db is not given']],
    exit: '0 copied, 2 invalid input or a failed copy',
  },
  traces: {
    summary: 'Imports a file of OpenTelemetry spans (OTLP/JSON) as POST /v1/traces takes them: each enabled online rule decides each GenAI span.',
    usage: [TRACES_USAGE],
    flags: {
      db: { type: 'string', value: '<path>', help: 'the database the server uses (default: JUDGEFLOW_DB, else ./.judgeflow/judgeflow.db)' },
    },
    examples: [['judgeflow traces import spans.jsonl', 'the Collector\'s file exporter output, one export request a line']],
    env: [['JUDGEFLOW_OTLP_MAX_ATTRIBUTES, JUDGEFLOW_OTLP_MAX_ATTRIBUTE_CHARS', 'a span past them is rejected, as the endpoint rejects it']],
    exit: '0 imported, 2 invalid input',
  },
  review: {
    summary: 'Prints the items of a review queue people agree on: input, output, the judge\'s verdict, the consensus and the expected verdict and score.',
    usage: [REVIEW_USAGE],
    flags: {
      db: { type: 'string', value: '<path>', help: 'the database the server uses (default: JUDGEFLOW_DB, else ./.judgeflow/judgeflow.db)' },
      format: { type: 'string', value: 'jsonl|csv', help: 'one item a line as JSON (the default), or CSV with a header' },
    },
    examples: [['judgeflow review export helpfulness --format csv > labels.csv', 'a queue\'s consensus, for a spreadsheet']],
    exit: '0 printed, 2 invalid input',
  },
  db: {
    summary: 'Copies a SQLite database into an empty PostgreSQL one, checking every table\'s row count.',
    usage: [DB_USAGE],
    flags: {
      from: { type: 'string', value: '<sqlite file>', help: 'the SQLite database to copy' },
      to: { type: 'string', value: '<postgres url>', help: 'the empty PostgreSQL database, postgres://user:password@host:5432/name' },
    },
    examples: [['judgeflow db copy --from .judgeflow/judgeflow.db --to postgres://judgeflow:secret@localhost:5432/judgeflow', 'move to PostgreSQL']],
    exit: '0 copied with matching counts, 2 invalid input or error',
  },
  serve: {
    summary: 'Serves the web app and its API (on PostgreSQL, also a worker unless --no-worker).',
    usage: [SERVE_USAGE.split('   ')[0]!],
    flags: {
      'port': { type: 'string', value: 'N', help: 'the port to listen on (default: PORT, else 3000)' },
      'host': { type: 'string', value: '<host>', help: 'the address to listen on (default: HOST, else 127.0.0.1: this machine only)' },
      'db': { type: 'string', value: '<path>', help: 'the SQLite database file (default: JUDGEFLOW_DB, else ./.judgeflow/judgeflow.db)' },
      'no-worker': { type: 'boolean', help: 'on PostgreSQL, execute no queued runs in this process (as JUDGEFLOW_WORKER=0)' },
    },
    examples: [
      ['judgeflow serve', 'serve http://127.0.0.1:3000'],
      ['judgeflow serve --port 8080 --db data/judgeflow.db', 'another port and database file'],
    ],
    env: [
      ['PORT, HOST', 'the port and address, when --port and --host are not given'],
      ['JUDGEFLOW_DB', 'the SQLite file, when --db is not given'],
      ['JUDGEFLOW_DATABASE_URL', 'postgres://…: keep everything in PostgreSQL instead'],
      ...KEYS,
    ],
    exit: '0 stopped, 1 could not start (one sentence says why)',
  },
  worker: {
    summary: 'Executes the runs queued in PostgreSQL, N at a time, at a lower CPU priority; SIGTERM drains.',
    usage: [WORKER_USAGE.split('   ')[0]!],
    flags: {
      concurrency: { type: 'string', value: 'N', help: 'runs executed at once (default: JUDGEFLOW_WORKER_CONCURRENCY, else 8)' },
      nice: { type: 'string', value: 'N', help: 'the CPU priority, 0 (usual) to 19 (lowest); default 10' },
    },
    examples: [['JUDGEFLOW_DATABASE_URL=postgres://judgeflow:secret@localhost:5432/judgeflow judgeflow worker --concurrency 4', 'a worker beside the server']],
    env: [['JUDGEFLOW_DATABASE_URL', 'the PostgreSQL database whose queue it takes runs from (needed)'], ...KEYS],
    exit: '0 drained after SIGTERM or SIGINT, 2 invalid input or no database',
  },
} as const satisfies Record<string, CommandHelp>

export type CommandName = keyof typeof COMMANDS
