import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_CONFIG_FILE_BYTES, readEvaluatorConfigFile } from '../../../engine'

function folder() {
  const root = mkdtempSync(join(tmpdir(), 'judgeflow-configs-'))
  const configs = join(root, 'configs')
  mkdirSync(configs)
  writeFileSync(join(configs, 'judge.json'), JSON.stringify({ evaluation_type: 'scoring', model: 'local:heuristic' }))
  writeFileSync(join(configs, 'suite.toml'), '[llm_default]\nmodel = "local:heuristic"\n')
  writeFileSync(join(root, 'secret.json'), JSON.stringify({ password: 'hunter2' }))
  return { root, configs }
}

const refused = async (path: string, within: string) => {
  const error = await readEvaluatorConfigFile(path, { within }).then(() => null, (e: Error) => e)
  expect(error).toMatchObject({ code: 'INVALID_CONFIG' })
  return error!.message
}

describe('evaluator config files', () => {
  it('reads JSON and TOML files inside the config folder, by relative or absolute path', async () => {
    const { configs } = folder()
    expect(await readEvaluatorConfigFile('judge.json', { within: configs })).toEqual({ evaluation_type: 'scoring', model: 'local:heuristic' })
    expect(await readEvaluatorConfigFile(join(configs, 'suite.toml'), { within: configs })).toMatchObject({ llm_default: { model: 'local:heuristic' } })
  })

  it('refuses paths outside the folder, through .., absolute paths and symlinks, without saying what is there', async () => {
    const { root, configs } = folder()
    symlinkSync(join(root, 'secret.json'), join(configs, 'link.json'))
    symlinkSync('/etc/passwd', join(configs, 'passwd.json'))
    for (const path of ['../secret.json', join(root, 'secret.json'), 'link.json', 'passwd.json', '/etc/../etc/nothing.json']) {
      const message = await refused(path, configs)
      expect(message).toContain('outside the config folder')
      expect(message).toContain('JUDGEFLOW_CONFIG_DIR')
      expect(message).not.toMatch(/hunter2|password|root:/)
    }
  })

  it('refuses devices, other extensions, folders and files over the size cap', async () => {
    const { configs } = folder()
    expect(await refused('/dev/zero', configs)).toContain('must be a .json or .toml file')
    symlinkSync('/dev/zero', join(configs, 'zero.json'))
    expect(await refused('zero.json', configs)).toContain('outside the config folder')
    mkdirSync(join(configs, 'dir.json'))
    expect(await refused('dir.json', configs)).toContain('is not a regular file')
    writeFileSync(join(configs, 'big.json'), `{"a":"${'x'.repeat(MAX_CONFIG_FILE_BYTES)}"}`)
    expect(await refused('big.json', configs)).toContain(`larger than ${MAX_CONFIG_FILE_BYTES} bytes`)
    expect(await refused('missing.json', configs)).toContain('does not exist')
  })

  it('refuses a named pipe (FIFO), by its name or through a link, without opening it to wait for a writer', async () => {
    const { configs } = folder()
    const fifo = join(configs, 'fifo.json')
    execFileSync('mkfifo', [fifo])
    symlinkSync(fifo, join(configs, 'pipe.toml'))
    try {
      expect(await refused('fifo.json', configs)).toBe('The config file "fifo.json" is not a regular file: only regular .json and .toml files are read.')
      expect(await refused('pipe.toml', configs)).toContain('is not a regular file')
    }
    finally {
      // Lets go of a reader still waiting on the pipe, if the file was opened after all.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
      }
      catch { /* no reader */ }
    }
  })

  it('never says where the config folder is: files are named as given, or relative to it', async () => {
    const { root, configs } = folder()
    writeFileSync(join(configs, 'broken.json'), '{')
    mkdirSync(join(configs, 'team'))
    writeFileSync(join(configs, 'team', 'broken.toml'), '= x')
    const messages = [
      await refused('missing.json', configs),
      await refused(join(configs, 'missing.json'), configs),
      await refused(join(configs, 'broken.json'), configs),
      await refused(join(configs, 'team', 'broken.toml'), configs),
      await refused('../secret.json', configs),
      await refused('judge.json', join(root, 'nowhere')),
    ]
    expect(messages.slice(0, 3)).toEqual([
      'Cannot read the config file "missing.json" in the config folder (JUDGEFLOW_CONFIG_DIR): it does not exist.',
      'Cannot read the config file "missing.json" in the config folder (JUDGEFLOW_CONFIG_DIR): it does not exist.',
      'The config file "broken.json" is not valid JSON.',
    ])
    expect(messages[3]).toContain(`the config file "${join('team', 'broken.toml')}"`)
    expect(messages[4]).toBe('The config file "../secret.json" is outside the config folder (JUDGEFLOW_CONFIG_DIR); config files are read only from there.')
    expect(messages[5]).toBe('Cannot read the config file "judge.json": the config folder (JUDGEFLOW_CONFIG_DIR) does not exist.')
    for (const message of messages) expect(message).not.toContain(root)
  })

  it('names the file but never its content when it does not parse', async () => {
    const { configs } = folder()
    writeFileSync(join(configs, 'broken.json'), 'root:x:0:0:root:/root:/bin/bash')
    const message = await refused('broken.json', configs)
    expect(message).toBe('The config file "broken.json" is not valid JSON.')
  })
})
