// Finds a workflow document's problems off the page's main thread; see useWorkflowProblems.
import { problemsOf, warningsOf } from '../utils/validate'

export interface ValidateRequest { seq: number, doc: string }

onmessage = (event: MessageEvent<ValidateRequest>) => {
  const doc = JSON.parse(event.data.doc)
  postMessage({ seq: event.data.seq, problems: problemsOf(doc), warnings: warningsOf(doc) })
}
