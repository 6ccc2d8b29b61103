// Finds a workflow document's problems off the page's main thread; see useWorkflowProblems.
import { checkDocument } from '../utils/validate'

export interface ValidateRequest { seq: number, doc: string }

onmessage = (event: MessageEvent<ValidateRequest>) => {
  const { problems, warnings } = checkDocument(JSON.parse(event.data.doc))
  postMessage({ seq: event.data.seq, problems, warnings })
}
