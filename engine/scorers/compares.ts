/**
 * What each built-in scorer compares the output with: `expected`, or the first of these options
 * given in its place (`[]`: expected only); `null` for a scorer that compares with nothing. Plain
 * data, browser-safe: the workflow's validation reads it, so a scorer with nothing to compare with
 * is refused before a run. A custom scorer is not listed: what it needs is its own business.
 * tests/unit/scorers/compares.test.ts holds every built-in scorer to its entry.
 */
export const SCORER_COMPARES: Readonly<Record<string, readonly string[] | null>> = {
  'operation-accuracy': [],
  'target-block-precision': [],
  'content-quality': [],
  'operation-result': [],
  'anti-hallucination': [],
  'response-time': null,
  'exact-match': ['value'],
  'contains': ['values', 'value'],
  'regex': ['pattern'],
  'json-valid': null,
  'json-schema': ['schema'],
  'json-diff': [],
  'levenshtein': ['value'],
  'numeric-diff': ['value'],
}
