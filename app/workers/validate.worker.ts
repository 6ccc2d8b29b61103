// Finds a workflow document's problems off the page's main thread; see useWorkflowProblems.
import { problemsOf } from '../utils/validate'

export interface ValidateRequest { seq: number, doc: string }

onmessage = (event: MessageEvent<ValidateRequest>) => {
  postMessage({ seq: event.data.seq, problems: problemsOf(JSON.parse(event.data.doc)) })
}
