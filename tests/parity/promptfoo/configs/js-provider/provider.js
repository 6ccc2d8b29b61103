// A promptfoo provider class (CommonJS): the product answers with what the prompt asks it to echo.
module.exports = class EchoProvider {
  constructor(options) {
    this.prefix = (options.config && options.config.prefix) || ''
    this.providerId = options.id
  }

  id() {
    return this.providerId
  }

  async callApi(prompt, context) {
    if (context.vars.down === 'yes') return { error: 'the product is down' }
    const echo = prompt.split('ECHO>>').pop().split('<<ECHO')[0]
    if (context.vars.shape === 'object') return { output: { answer: echo, words: echo.split(' ').length } }
    return { output: `${this.prefix}${echo}` }
  }
}
