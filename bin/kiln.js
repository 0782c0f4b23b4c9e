#!/usr/bin/env node
// The `kiln` command. In a clone it runs Kiln from its TypeScript sources; in an installed package, from the compiled
// dist/. It registers tsx only when something TypeScript is to load: Kiln's sources, or an app's config/*.ts. A built
// app (`kiln build`) has only JavaScript and runs on plain node.
import cluster from 'node:cluster'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire, register as registerHooks } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

// `kiln route:list | head -3` closes the pipe before the output ends: stop quietly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(process.exitCode ?? 0)
  })
}

const fromSources = existsSync(new URL('../core/cli/main.ts', import.meta.url))
const verbose = process.argv.includes('--verbose')
try {
  if (fromSources) {
    // An app linked to this clone imports `kiln-framework`: the `kiln-source` export condition resolves it to the sources.
    const hook = `export async function resolve(specifier, context, next) { return next(specifier, { ...context, conditions: [...context.conditions, 'kiln-source'] }) }`
    registerHooks(`data:text/javascript,${encodeURIComponent(hook)}`)
  }
  const root = appRoot()
  if (fromSources || hasTypeScript(root)) await registerTsx(root)
  const { runCli } = await import(fromSources ? '../core/cli/main.ts' : '../dist/core/cli/main.js')
  process.exitCode = await runCli(process.argv.slice(2))
} catch (error) {
  // runCli answers every expected failure itself; this is a fault in Kiln or its install, still said in one line.
  process.stderr.write(
    `kiln: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}${verbose && error instanceof Error ? `\n${error.stack}` : ' (--verbose shows the stack)'}\n`,
  )
  process.exitCode = 1
}
// A worker of `kiln serve --workers` is held open by its channel to the primary: let go of it once the command is done
// (served and drained, or failed to boot), so that the process ends with its exit code and the primary sees it.
// The primary may be gone already (its channel closed): then there is nothing to let go of, and no error to report.
if (cluster.isWorker && process.connected) cluster.worker.on('error', () => {}).disconnect()

/** The app folder the CLI will use: `--root`, else KILN_ROOT, else here. */
function appRoot() {
  const args = process.argv.slice(2)
  const at = args.findIndex((arg) => arg === '--root' || arg.startsWith('--root='))
  const flag = at < 0 ? undefined : args[at] === '--root' ? args[at + 1] : args[at].slice('--root='.length)
  return resolve(flag ?? process.env.KILN_ROOT ?? '.')
}

/** Whether the app's settings are TypeScript (then so is the rest of its code). */
function hasTypeScript(root) {
  const config = join(root, 'config')
  return existsSync(config) && readdirSync(config).some((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
}

/** tsx from the app's own dependencies, else Kiln's; a one-line error when neither has it. */
async function registerTsx(root) {
  let api
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      // tsx's ESM entry (its CommonJS one cannot register the ESM loader), found the way `import` would from `from`.
      const manifest = createRequire(from).resolve('tsx/package.json')
      api = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).exports['./esm/api'].import.default)
      break
    } catch {
      // Not installed beside this root: try the next one.
    }
  }
  if (!api)
    throw new Error(
      `The app in ${root} is TypeScript and tsx is not installed: run npm install --save-dev tsx, or build it with kiln build and run the built app.`,
    )
  const { register } = await import(pathToFileURL(api).href)
  register()
}
