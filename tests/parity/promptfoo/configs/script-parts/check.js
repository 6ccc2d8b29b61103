// A grade made of parts, as promptfoo's custom assertions return it.
module.exports = function (output) {
  const hasCity = output.includes('Lyon')
  const short = output.length < 40
  return {
    pass: hasCity && short,
    score: (Number(hasCity) + Number(short)) / 2,
    reason: `city ${hasCity}, short ${short}`,
    componentResults: [
      { pass: hasCity, score: hasCity ? 1 : 0, reason: 'names the city' },
      { pass: short, score: short ? 1 : 0, reason: 'is short' },
    ],
    namedScores: { city: hasCity ? 1 : 0, brevity: short ? 1 : 0 },
  }
}
