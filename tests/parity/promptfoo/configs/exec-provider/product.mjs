// An exec provider in JavaScript: the prompt comes after the script's own arguments.
const [prompt, , context] = process.argv.slice(-3)
const echo = prompt.split('ECHO>>').pop().split('<<ECHO')[0]
console.log(`${echo} (${JSON.parse(context).vars.answer.length} characters)`)
