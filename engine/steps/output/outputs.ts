import { objectOf, output } from '../outputs'

/** What an output step outputs: the branch's verdict and value. Free of zod: the editor's page reads it. */
export const outputOutputs = () => objectOf({
  verdict: output(['string', 'null'], 'pass, fail, or null when none is set'),
  value: output('any', 'the run\'s value (null when none is set)'),
}, 'the branch\'s end')
