/** Where a command prints: the process's stdout and stderr, or a test's buffers. */
export interface Io {
  out(text: string): void
  err(text: string): void
}

export const processIo: Io = {
  out: text => process.stdout.write(`${text}\n`),
  err: text => process.stderr.write(`${text}\n`),
}
