import { objectOf, output } from '../outputs'

/** What an HTTP step outputs: the product's answer and the response it came in. Free of zod: the editor's page reads it. */
export const httpOutputs = () => objectOf({
  text: output('string', 'the answer: the value at the `answer` path (JSON text when it is not a string), or the whole body'),
  json: output('any', 'the response body parsed as JSON; null when it is not JSON'),
  status: output('number', 'the response\'s HTTP status'),
  headers: objectOf({}, 'the response headers that say nothing private (content-type, request ids, rate limits…), names in lower case', { open: true }),
  latency_ms: output('number', 'how long the last call took, in milliseconds, its redirects included'),
  attempts: output('number', 'the calls made, retries included'),
  usage: objectOf({
    input_tokens: output('number', 'tokens the product\'s model read'),
    output_tokens: output('number', 'tokens the product\'s model wrote'),
  }, 'the token usage the response reports (`usage` with prompt_tokens and completion_tokens, or input_tokens and output_tokens): the product\'s tokens, counted as the generation\'s', { optional: 'when the response reports token usage' }),
}, 'the response of the system under test')
