/**
 * CSV cells a spreadsheet would run as a formula (OWASP's CSV injection: a cell that opens with
 * `=`, `+`, `-`, `@`, a tab or a carriage return) are written with a leading `'`, which spreadsheets
 * read as "this is text". Cells that already open with quotes before such a character get one more,
 * so reading a cell back removes exactly one quote and every cell returns as it was written.
 */

const FORMULA_START = /^'*[=+\-@\t\r]/
const NEUTRALISED = /^'+[=+\-@\t\r]/

/** The text as a cell no spreadsheet runs. */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}

/** A cell as `neutraliseCell` was given it: one leading quote fewer when it neutralised one. */
export function restoreCell(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell
}
