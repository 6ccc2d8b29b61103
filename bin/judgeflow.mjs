#!/usr/bin/env node
// An installed package runs its compiled CLI (dist/, built before packing); a source checkout
// runs the TypeScript CLI through tsx's loader, so there `npx judgeflow` needs no build step and
// never runs a stale build.
import { existsSync } from 'node:fs'

let main
if (existsSync(new URL('../cli/main.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../cli/main.ts'))
}
else ({ main } = await import('../dist/cli.js'))
process.exitCode = await main(process.argv.slice(2))
