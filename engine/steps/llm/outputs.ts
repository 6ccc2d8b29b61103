import { objectOf, output } from '../outputs'

/** What an LLM step outputs: the answer and what the call cost. Free of zod: the editor's page reads it. */
export const llmOutputs = () => objectOf({
  text: output('string', 'the model\'s answer'),
  model: output('string', 'the model that answered'),
  usage: objectOf({
    input_tokens: output('number', 'tokens sent'),
    output_tokens: output('number', 'tokens received'),
  }, 'the call\'s token usage'),
  latency_ms: output('number', 'how long the call took, in milliseconds (0 from the cache)'),
  cached: output('boolean', 'whether the answer came from the response cache'),
  cost_usd: output(['number', 'null'], 'what the call cost in US dollars at the model\'s published price (0 from the cache); null when judgeflow knows no price for the model'),
}, 'the model\'s answer')
