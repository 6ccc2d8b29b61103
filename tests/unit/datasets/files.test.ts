import { parse as parseCsv } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { formatFromName, parseDatasetFile, toCsv, toJsonl } from '../../../engine/datasets/files'
import { JudgeflowError } from '../../../engine/errors'

function refusal(run: () => unknown): string {
  try {
    run()
  }
  catch (error) {
    expect(error).toBeInstanceOf(JudgeflowError)
    expect((error as JudgeflowError).code).toBe('INVALID_INPUT')
    return (error as Error).message
  }
  throw new Error('expected the file to be refused')
}

describe('CSV', () => {
  it('reads input columns, the reserved columns, quoted multi-line cells and a BOM', () => {
    const csv = '\uFEFFid,question,tags,expected_verdict,expected_score,reference\n'
      + 'q1,"Why is the sky\nblue?",billing; urgent,PASS,0.8,Rayleigh scattering\n'
      + '\n'
      + ',How much?,,fail,,\n'
    const { cases } = parseDatasetFile(csv, 'csv')
    expect(cases).toEqual([
      { id: 'q1', input: { question: 'Why is the sky\nblue?', reference: 'Rayleigh scattering' }, expected: { verdict: 'pass', score: 0.8, reference: 'Rayleigh scattering' }, tags: ['billing', 'urgent'] },
      // No id: named by its position among the cases (the second), whatever lines the cells span.
      // Empty cells leave their field out.
      { id: 'case-2', input: { question: 'How much?' }, expected: { verdict: 'fail' } },
    ])
  })

  it('refuses the whole file, naming each bad row by line and column', () => {
    const csv = 'id,question,expected_verdict,expected_score\nq1,a,pass,0.5\nq2,b,maybe,1.5\nq1,c,,\n'
    const message = refusal(() => parseDatasetFile(csv, 'csv', { where: 'support.csv' }))
    expect(message).toBe('support.csv has 2 problems, so nothing was imported: line 3, expected_verdict: "maybe" is not a verdict: use pass or fail; line 3, expected_score: "1.5" is not a score between 0 and 1.')
    // Ids are checked once every row is well formed.
    expect(refusal(() => parseDatasetFile('id,question\nq1,a\nq1,c\n', 'csv'))).toContain('line 3, id: "q1" is already the id of the case on line 2')
  })

  it('refuses a ragged row, a duplicate or nameless header and an empty file', () => {
    expect(refusal(() => parseDatasetFile('id,q\nq1,a,extra\n', 'csv', { where: 'x.csv' }))).toMatch(/^x\.csv, line 2: not valid CSV: Invalid Record Length/)
    expect(refusal(() => parseDatasetFile('q,q,\n1,2,3\n', 'csv'))).toContain('line 1, q: is a column twice in the header row; line 1, column 3: has no name in the header row')
    expect(refusal(() => parseDatasetFile('id,question\n', 'csv'))).toBe('the dataset has no cases.')
  })
})

describe('JSONL, JSON and YAML', () => {
  it('reads JSONL, skipping blank lines, and names the line of a bad row and its field', () => {
    const text = '{"id":"a","input":{"q":"x"}}\n\n{"input":{"q":"y"},"tags":["t"]}\n'
    expect(parseDatasetFile(text, 'jsonl').cases).toEqual([{ id: 'a', input: { q: 'x' } }, { id: 'case-2', input: { q: 'y' }, tags: ['t'] }])
    const bad = '{"id":"a","input":{}}\n{"id":"b","input":{},"expected":{"score":2}}\n{"id":"c"}\nnot json\n{"id":"d","input":{},"extra":1}\n'
    const message = refusal(() => parseDatasetFile(bad, 'jsonl'))
    expect(message).toContain('line 2, expected.score: must be between 0 and 1')
    expect(message).toContain('line 3, input: is required')
    expect(message).toContain('line 4, (row): is not valid JSON')
    expect(message).toContain('line 5, (row): unknown key(s) extra')
  })

  it('refuses __proto__ keys and values nested too deep', () => {
    expect(refusal(() => parseDatasetFile('{"id":"a","input":{"__proto__":{"x":1}}}\n', 'jsonl'))).toContain('"__proto__" is not allowed as a key')
    const deep = `{"id":"a","input":{"x":${'['.repeat(10)}${']'.repeat(10)}}}`
    expect(refusal(() => parseDatasetFile(deep, 'jsonl', { maxDepth: 8 }))).toContain('more than 8 levels deep')
  })

  it('refuses text nested past the limit in every format before any parser recurses, naming the limit, every time', () => {
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(refusal(() => parseDatasetFile(deep, 'json', { where: 'the JSON file' }))).toBe(`the JSON file nests objects and arrays more than 64 levels deep (at ${'[0]'.repeat(64)}): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most 1000).`)
      expect(refusal(() => parseDatasetFile(deep, 'yaml', { where: 'the YAML file' }))).toBe('the YAML file nests objects and arrays more than 64 levels deep (at line 1, column 65): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most 1000).')
      expect(refusal(() => parseDatasetFile(`{"id":"a","input":{"x":1}}\n${deep}\n`, 'jsonl'))).toContain('line 2, (row): nests objects and arrays more than 64 levels deep')
    }
    expect(refusal(() => parseDatasetFile(`cases:\n  - input:\n      q: ${'{a: '.repeat(70)}1${'}'.repeat(70)}\n`, 'yaml'))).toContain('more than 64 levels deep (at line 3, column')
    expect(parseDatasetFile('- id: a\n  input: { q: x }\n', 'yaml').cases).toEqual([{ id: 'a', input: { q: 'x' } }])
  })

  it('reads { name, cases } and bare lists in JSON and YAML, with the line of each bad case', () => {
    const json = JSON.stringify({ name: 'support', cases: [{ id: 'a', input: { q: 'x' } }, { id: 'b', input: { q: 'y' }, expected: { verdict: 'fail' } }] }, null, 2)
    expect(parseDatasetFile(json, 'json')).toEqual({ name: 'support', cases: [{ id: 'a', input: { q: 'x' } }, { id: 'b', input: { q: 'y' }, expected: { verdict: 'fail' } }] })
    const yaml = 'name: support\ncases:\n  - id: a\n    input: { q: x }\n  - input: { q: y }\n    expected: { verdict: maybe }\n'
    expect(refusal(() => parseDatasetFile(yaml, 'yaml'))).toContain('line 5, expected.verdict:')
    expect(parseDatasetFile('- input: { q: y }\n', 'yaml').cases).toEqual([{ id: 'case-1', input: { q: 'y' } }])
    const badJson = '[\n  {"id":"a","input":{}},\n  {"id":"b"}\n]'
    expect(refusal(() => parseDatasetFile(badJson, 'json'))).toContain('line 3, input: is required')
    const named = '{\n  "name": "x",\n  "cases": [\n    {"id":"a","input":{"s":"[,{"}},\n\n    {"id":"b"}\n  ]\n}'
    expect(refusal(() => parseDatasetFile(named, 'json'))).toContain('line 6, input: is required')
    expect(refusal(() => parseDatasetFile('[{"id":"a","input":{}},', 'json', { where: 'd.json' }))).toMatch(/^d\.json is not valid JSON: /)
    expect(refusal(() => parseDatasetFile('{"name":"x","cases":[],"other":1}', 'json'))).toContain('unknown top-level key(s) other')
    expect(refusal(() => parseDatasetFile('cases: [\n', 'yaml', { where: 'd.yaml' }))).toMatch(/^d\.yaml, line \d+: not valid YAML/)
  })
})

describe('cases without an id', () => {
  const positional = [{ id: 'case-1', input: { q: 'a' } }, { id: 'b', input: { q: 'b' } }, { id: 'case-3', input: { q: 'c' } }]

  it('are numbered by their position among the cases, the same in every format and on one line or many', () => {
    expect(parseDatasetFile('[{"input":{"q":"a"}},{"id":"b","input":{"q":"b"}},{"input":{"q":"c"}}]', 'json').cases).toEqual(positional)
    expect(parseDatasetFile(JSON.stringify({ cases: [{ input: { q: 'a' } }, { id: 'b', input: { q: 'b' } }, { input: { q: 'c' } }] }, null, 2), 'json').cases).toEqual(positional)
    expect(parseDatasetFile('[{input: {q: a}}, {id: b, input: {q: b}}, {input: {q: c}}]', 'yaml').cases).toEqual(positional)
    expect(parseDatasetFile('cases:\n  - input: { q: a }\n\n  - id: b\n    input: { q: b }\n  - input: { q: c }\n', 'yaml').cases).toEqual(positional)
    expect(parseDatasetFile('{"input":{"q":"a"}}\n\n{"id":"b","input":{"q":"b"}}\n{"input":{"q":"c"}}\n', 'jsonl').cases).toEqual(positional)
    expect(parseDatasetFile('id,q\n,a\n\nb,"b"\n,c\n', 'csv').cases).toEqual(positional)
  })

  it('a one-line JSON file of many cases without ids is read, not refused as duplicates', () => {
    const cases = Array.from({ length: 1000 }, (_, i) => ({ input: { q: `question ${i}` } }))
    const parsed = parseDatasetFile(JSON.stringify(cases), 'json').cases
    expect(parsed.map(c => c.id)).toEqual(cases.map((_, i) => `case-${i + 1}`))
  })

  it('an id given that equals another case\'s position is refused as a duplicate, naming both lines', () => {
    expect(refusal(() => parseDatasetFile('[\n  {"id":"case-2","input":{}},\n  {"input":{}}\n]', 'json'))).toContain('line 3, id: "case-2" is already the id of the case on line 2')
  })
})

describe('export', () => {
  const cases = [
    { id: 'q1', input: { question: 'Why, "really"?', reference: 'Because' }, expected: { verdict: 'pass' as const, score: 0.8, reference: 'Because' }, tags: ['billing', 'urgent'] },
    { id: 'q2', input: { question: 'How?', context: { doc: 1 } } },
  ]

  it('writes JSONL that reads back the same', () => {
    expect(parseDatasetFile(toJsonl(cases), 'jsonl').cases).toEqual(cases)
  })

  it('writes CSV with the reserved columns last, and it reads back', () => {
    const csv = toCsv(cases)
    expect(csv.split('\n')[0]).toBe('id,question,context,tags,expected_verdict,expected_score,reference')
    expect(parseDatasetFile(csv, 'csv').cases).toEqual([
      cases[0],
      // Values that are not text travel as JSON text.
      { id: 'q2', input: { question: 'How?', context: '{"doc":1}' } },
    ])
  })

  it('writes no cell a spreadsheet would run as a formula, and the neutralised cells read back as they were', () => {
    const hostile = [
      { id: '=1+1', input: { '=field': '=cmd|\' /C calc\'!A0', 'link': '=HYPERLINK("http://x.example","click")', 'sum': '+1+1', 'at': '@SUM(1)', 'minus': '-1+2', 'tab': '\t=1', 'cr': '\r=1', 'quoted': '\'=already' }, expected: { reference: '@ref' }, tags: ['+tag', 'plain'] },
      { id: 'b', input: { '=field': 'plain', 'link': 'it\'s fine', 'sum': 'a=b', 'at': 'x@y', 'minus': '1-2', 'tab': 'x', 'cr': 'y', 'quoted': '\'plain' } },
    ]
    const csv = toCsv(hostile)
    const cells = (parseCsv(csv) as string[][]).flat()
    expect(cells.filter(cell => /^[=+\-@\t\r]/.test(cell))).toEqual([])
    expect(cells).toEqual(expect.arrayContaining(['\'=field', '\'=1+1', '\'=cmd|\' /C calc\'!A0', '\'+1+1', '\'@SUM(1)', '\'-1+2', '\'\t=1', '\'\r=1', '\'\'=already', '\'@ref', '\'+tag;plain', 'it\'s fine', '\'plain']))
    expect(parseDatasetFile(csv, 'csv').cases).toEqual([
      { ...hostile[0], input: { ...hostile[0]!.input, reference: '@ref' } },
      hostile[1],
    ])
  })

  it('writes numbers of its own as numbers: a negative input number is not neutralised, a text that looks like one is', () => {
    const rows = parseCsv(toCsv([{ id: 'n', input: { number: -1.5, text: '-1' }, expected: { score: 0 } }])) as string[][]
    expect(rows).toEqual([['id', 'number', 'text', 'tags', 'expected_verdict', 'expected_score', 'reference'], ['n', '-1.5', '\'-1', '', '', '0', '']])
  })

  it('refuses to write to CSV an input field that clashes with a reserved column', () => {
    expect(refusal(() => toCsv([{ id: 'a', input: { tags: 'x' } }]))).toBe('case "a": the input field "tags" cannot be written to CSV, where "tags" is a reserved column; export to JSONL instead.')
  })
})

it('knows formats by file name', () => {
  expect(['a.csv', 'b.JSONL', 'c.ndjson', 'd.json', 'e.yml', 'f.yaml', 'g.txt'].map(formatFromName)).toEqual(['csv', 'jsonl', 'jsonl', 'json', 'yaml', 'yaml', null])
})

describe('cases given as values', () => {
  it('checks each as a row, naming the case by number, and refuses them whole', async () => {
    const { checkCases } = await import('../../../engine/datasets/files')
    expect(checkCases([{ input: { q: 'a' } }, { id: 'b', input: {} }])).toEqual([{ id: 'case-1', input: { q: 'a' } }, { id: 'b', input: {} }])
    expect(refusal(() => checkCases([{ id: 'a', input: {} }, { id: 'a', input: {} }, { id: 'c' }]))).toBe('the dataset has a problem, so nothing was imported: case 3, input: is required.')
    expect(refusal(() => checkCases([{ id: 'a', input: {} }, { id: 'a', input: {} }]))).toContain('case 2, id: "a" is already the id of case 1')
  })
})
