import { objectOf, output } from '../outputs'

/** What a code step outputs: what its function returned, a string as `{ text }`. Free of zod: the editor's page reads it. */
export const codeOutputs = () => objectOf({
  text: output('string', 'the string the function returned, or the `text` of the object it returned, whose other keys are output as they are', { optional: 'when it returned a string, or an object with text' }),
}, 'what the function returned: an object as it is (any keys), a string as { text }', { open: true })
