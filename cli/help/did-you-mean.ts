import { closestKey } from '../../engine/text/edit-distance'
import type { Flags } from './flag-spec'

/**
 * An option the command does not take: "Unknown option '--datset'. Did you mean --dataset?", the
 * nearest of the command's own flags by edit distance; else where its options are listed.
 */
export function unknownOptionMessage(command: string, option: string, flags: Flags): string {
  const near = option.startsWith('--') ? closestKey(option.slice(2).split('=')[0]!, Object.keys(flags)) : undefined
  return near
    ? `Unknown option '${option}'. Did you mean --${near}? (judgeflow ${command} --help lists its options)`
    : `Unknown option '${option}'. judgeflow ${command} --help lists its options.`
}

/** A command judgeflow does not have: the nearest one named, then them all. */
export function unknownCommandMessage(command: string, commands: readonly string[]): string {
  const near = closestKey(command, commands)
  return `Unknown command '${command}'.${near ? ` Did you mean ${near}?` : ''} Commands: ${commands.join(', ')} (judgeflow --help).`
}
