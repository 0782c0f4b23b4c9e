#!/usr/bin/env node
// The `kiln` command. Registers tsx so that the app's TypeScript (config,
// routes, models) loads directly, then runs the CLI.
import { register } from 'tsx/esm/api'

register()
const { runCli } = await import('../core/cli/main.ts')
process.exitCode = await runCli(process.argv.slice(2))
