/**
 * The "product" the code step of tests/e2e/code-step.spec.ts calls: the e2e server's config folder
 * is this one (JUDGEFLOW_CONFIG_DIR in playwright.config.ts). It answers the question it is given,
 * and says whether it sees the variable its step lists, never its value.
 */
export default async function (input: { question?: string }, context: { node: string, attempt: number }) {
  const question = input.question ?? '(none)'
  return { text: `${context.node} answered: ${question.toUpperCase()}`, words: question.split(/\s+/).filter(Boolean).length, sees_key: typeof process.env.E2E_API_KEY === 'string' }
}
