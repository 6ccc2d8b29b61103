// A custom metric computed in code: copy this folder's files into ./metrics (or point
// JUDGEFLOW_METRICS_DIR at a folder) and use `name = "WordBudget"` in a metric suite.
// A metric with `systemInstruction` instead of `score` is judged by the LLM like the built-ins.
export default {
  name: 'WordBudget',
  description: 'Answers in at most 60 words.',
  score({ submission }) {
    const words = submission.trim().split(/\s+/).length
    const score = words <= 60 ? 100 : Math.max(0, 100 - (words - 60) * 2)
    return { score, evaluator_comment: `${words} words (budget 60)` }
  },
}
