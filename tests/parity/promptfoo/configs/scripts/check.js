module.exports = (output, context) => output === context.vars.city
module.exports.lengthScore = output => ({ pass: output.length > 10, score: output.length / 10, reason: `length ${output.length}` })
