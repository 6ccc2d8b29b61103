/**
 * Commits the text field being typed in, as leaving it would (its change and blur handlers run),
 * then gives it the focus back with the caret where it was: a save, a run or a page left from the
 * keyboard takes what was typed, and typing goes on.
 */
export function commitFocusedField(): void {
  const field = document.activeElement
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return
  // Number fields have no selection to keep.
  const caret = field.selectionStart === null ? null : [field.selectionStart, field.selectionEnd ?? field.selectionStart, field.selectionDirection ?? 'none'] as const
  field.blur()
  if (!field.isConnected) return
  field.focus({ preventScroll: true })
  if (caret) field.setSelectionRange(caret[0], caret[1], caret[2])
}
