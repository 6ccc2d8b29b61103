import type { CommandHelp, Flags } from './flag-spec'

/** `judgeflow <command> --help`: what it does, its usage, one line per flag, the environment it reads, examples, exit codes. */
export function commandHelpText(name: string, help: CommandHelp): string {
  const flags = Object.entries(help.flags).map(([flag, spec]) => [`--${flag}${spec.value ? ` ${spec.value}` : ''}`, spec.help] as const)
  const width = Math.max(0, ...[...flags, ...(help.env ?? [])].map(([left]) => left.length))
  const table = (rows: ReadonlyArray<readonly [string, string]>) => rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)
  return [
    `judgeflow ${name} — ${help.summary}`,
    '',
    'Usage:',
    ...help.usage.map(line => `  ${line}`),
    '',
    ...(flags.length ? ['Options:', ...table(flags), ''] : [`Options: none (judgeflow ${name} takes its file only).`, '']),
    ...(help.env?.length ? ['Environment:', ...table(help.env), ''] : []),
    'Examples:',
    ...help.examples.flatMap(([command, what]) => [`  # ${what}`, `  ${command}`]),
    '',
    `Exit codes: ${help.exit}.`,
  ].join('\n')
}

/**
 * Whether the arguments ask for help (`--help` or `-h`), and not as the value of a flag that takes
 * one (`--input-json -h`) or after `--`.
 */
export function asksForHelp(args: readonly string[], flags: Flags): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') return false
    if (arg === '--help' || arg === '-h') return true
    const flag = /^--([^=]+)$/.exec(arg)?.[1]
    if (flag && flags[flag]?.type === 'string') i++
  }
  return false
}
