// A custom scorer in the scorer guide's form: a class with score() and getDetails(), exported as an
// instance. Copy this file into ./scorers (or point JUDGEFLOW_SCORERS_DIR at a folder); it has no
// `type` of its own, so it is found by its file name: `scorers: [{ "type": "word-limit" }]`.
class WordLimitScorer {
  constructor(maxWords) {
    this.maxWords = maxWords
    this.description = `Full marks up to ${maxWords} words, then less for every word over.`
    this.defaultThreshold = 0.8
  }

  words(actual) {
    const text = typeof actual === 'string' ? actual : String(actual?.text ?? actual?.content ?? '')
    return text.trim() ? text.trim().split(/\s+/).length : 0
  }

  score(actual) {
    const words = this.words(actual)
    return words <= this.maxWords ? 1 : Math.max(0, 1 - (words - this.maxWords) / this.maxWords)
  }

  getDetails(actual) {
    return { words: this.words(actual), maxWords: this.maxWords }
  }
}

export default new WordLimitScorer(50)
