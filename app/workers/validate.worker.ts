// Finds a workflow document's problems off the page's main thread; see useWorkflowProblems.
import { checkDocument } from '../utils/validate'
import { parseOwnJson } from '../../engine/text/own-json'

export interface ValidateRequest { seq: number, doc: string }

onmessage = (event: MessageEvent<ValidateRequest>) => {
  const { problems, warnings } = checkDocument(parseOwnJson(event.data.doc))
  postMessage({ seq: event.data.seq, problems, warnings })
}
