import { accessSync, closeSync, constants, lstatSync, openSync, statSync, writeSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { JudgeflowError } from '../engine'

/**
 * Every file a command writes is checked before the command does any work, so a long run never
 * ends in a write that fails or that destroys something: an output is never one of the command's
 * inputs (nor another of its outputs), never a symbolic link, never anything but a regular file,
 * and its folder must exist and be writable.
 */

/** A file the command reads, which no output may overwrite. */
export interface InputFile {
  path: string
  /** What the file is, as a sentence names it: "the dataset file". */
  what: string
}

export interface OutputFile {
  path: string
  /** How the user named it: "--report", "<file>". */
  flag: string
}

export interface OutputCheckOptions {
  inputs?: readonly InputFile[]
  /** The command creates the missing folders itself (as `mkdir -p`): the nearest existing one must be writable. */
  createsFolders?: boolean
}

/** Refuses, with one sentence naming the flag and the path, any output the command could not or must not write. */
export function checkOutputFiles(outputs: readonly OutputFile[], options: OutputCheckOptions = {}): void {
  const inputs = (options.inputs ?? []).map(input => ({ ...input, resolved: resolve(input.path), stats: statOrNull(input.path) }))
  outputs.forEach((output, index) => {
    const where = `${output.flag} "${output.path}"`
    const resolved = resolve(output.path)
    const earlier = outputs.slice(0, index).find(o => resolve(o.path) === resolved)
    if (earlier) refuse(`${where} is also where ${earlier.flag} goes: name a different file for each.`)
    const own = lstatOrNull(output.path)
    if (own?.isSymbolicLink()) refuse(`${where} is a symbolic link: name the file itself, not a link to it.`)
    if (own && !own.isFile()) refuse(`${where} is ${own.isDirectory() ? 'a folder' : 'not a regular file'}: name a file to write.`)
    const same = inputs.find(input => input.resolved === resolved || (own && input.stats && sameFile(own, input.stats)))
    if (same) refuse(`${where} is ${same.what} "${same.path}", which this command reads: name another file to write.`)
    if (own) return ensureWritable(output.path, `${where} cannot be written`)
    checkFolder(dirname(resolved), where, options.createsFolders ?? false)
  })
}

/** A folder the command writes files into (created when missing): refused when it is something else or cannot be written. */
export function checkOutputFolder(path: string, flag: string): void {
  const where = `${flag} "${path}"`
  const own = statOrNull(path)
  if (own && !own.isDirectory()) refuse(`${where} is a file, not a folder: name a folder to write into.`)
  if (own) return ensureWritable(path, `${where} cannot be written into`)
  checkFolder(dirname(resolve(path)), where, true)
}

/**
 * Writes a checked output; a symbolic link put in its place since the check is refused by the
 * system (O_NOFOLLOW) rather than followed.
 */
export function writeOutputFile(path: string, text: string, flag: string): void {
  let fd: number
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666)
  }
  catch (error) {
    refuse(`${flag} "${path}" cannot be written: ${reason(error)}.`)
  }
  try {
    writeSync(fd, text)
  }
  finally {
    closeSync(fd)
  }
}

function checkFolder(folder: string, where: string, createsFolders: boolean): void {
  let nearest = folder
  if (createsFolders) {
    while (!statOrNull(nearest) && dirname(nearest) !== nearest) nearest = dirname(nearest)
  }
  const stats = statOrNull(nearest)
  if (!stats) refuse(`${where} cannot be written: the folder "${nearest}" does not exist.`)
  if (!stats.isDirectory()) refuse(`${where} cannot be written: "${nearest}" is a file, not a folder.`)
  ensureWritable(nearest, `${where} cannot be written: the folder "${nearest}" is not writable`)
}

function ensureWritable(path: string, sentence: string): void {
  try {
    accessSync(path, constants.W_OK)
  }
  catch (error) {
    refuse(`${sentence}: ${reason(error)}.`)
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  }
  catch {
    return null
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  }
  catch {
    return null
  }
}

function reason(error: unknown): string {
  const { code } = error as NodeJS.ErrnoException
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EROFS') return 'the file system is read-only'
  if (code === 'ELOOP') return 'it is a symbolic link'
  return (error as Error).message.replace(/^\w+: /, '').replace(/, \w+ '.*'$/, '')
}

function refuse(sentence: string): never {
  throw new JudgeflowError('INVALID_INPUT', sentence)
}
