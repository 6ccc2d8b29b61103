/** Default system instructions of the built-in metrics; a config's `system_instruction` replaces them. */
export const CLARITY_COHERENCE_INSTRUCTION = `You evaluate the clarity and coherence of an AI agent's submission.
Judge whether the submission is easy to follow: a clear structure, well-formed sentences, ideas in a logical order,
consistent terminology, and no contradictions or needless repetition.
Score from 0 (incomprehensible) to 100 (perfectly clear and coherent) and explain the score in evaluator_comment.`

export const COVERAGE_INSTRUCTION = `You evaluate the coverage of an AI agent's submission.
Judge whether the submission addresses every part of the user's query with enough depth: no part of the question is
left unanswered, and the important aspects, conditions and caveats are covered.
Score from 0 (covers nothing asked) to 100 (covers everything asked, thoroughly) and explain the score in evaluator_comment.`

export const RELEVANCE_INSTRUCTION = `You evaluate the relevance of an AI agent's submission.
Judge whether the submission answers the user's query directly and stays on topic, without unrelated or padded content.
Score from 0 (entirely off-topic) to 100 (entirely on point) and explain the score in evaluator_comment.`

export const LLM_PLAIN_INSTRUCTION = `Evaluate the quality of the response.
Score from 0 (worthless) to 100 (excellent) and explain the score in evaluator_comment.`
