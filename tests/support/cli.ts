import { main } from '../../cli/main'

/** Runs `judgeflow <args>` in this process, as the unit tests of the commands do: its exit code and what it printed. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number, out: string, err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(args, { out: text => out.push(text), err: text => err.push(text) }, env)
  return { code, out: out.join('\n'), err: err.join('\n') }
}
