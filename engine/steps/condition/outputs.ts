import { objectOf, output } from '../outputs'

/** What a condition outputs: the branch it took. Free of zod: the editor's page reads it. */
export const conditionOutputs = () => objectOf({ result: output('boolean', 'the comparison\'s result: the branch taken') }, 'the comparison\'s result')
