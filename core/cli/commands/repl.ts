import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { start, type REPLEval } from 'node:repl'
import { PassThrough } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { inspect } from 'node:util'
import type { Application } from '../../application/application.ts'
import { runWithApp } from '../../application/current-app.ts'
import { defineCommand } from '../define-command.ts'
import { typePipedLines } from './repl-piped-input.ts'

/** The model classes exported under `app/models`, by class name. */
async function appModels(app: Application): Promise<Record<string, unknown>> {
  const { Model } = await import('../../database/model/model.ts')
  const models: Record<string, unknown> = {}
  const visit = async (dir: string): Promise<void> => {
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) await visit(path)
      else if (/\.(ts|js|mjs)$/.test(entry) && !/\.(test|d)\.(ts|js)$/.test(entry)) {
        for (const value of Object.values((await import(pathToFileURL(path).href)) as Record<string, unknown>))
          if (typeof value === 'function' && value.prototype instanceof Model) models[value.name] = value
      }
    }
  }
  await visit(join(app.root, 'app/models'))
  return models
}

/**
 * `kiln repl`: Node's REPL inside the booted app, as artisan's `tinker` and
 * ace's `repl`: `app`, `Route`, `Gate`, `Queue`, `db`, every model of
 * `app/models` by its class name and the whole framework as `kiln`;
 * top-level `await` works, and so do facades. Lines run in order, each after
 * the one before has finished, also when piped; models print as their class
 * and attributes.
 */
export const replCommand = defineCommand({
  name: 'repl',
  description: 'Start a REPL inside the booted app (models, app, Route... at hand; top-level await)',
  examples: ['kiln repl', 'echo "await User.query().count()" | kiln repl'],
  async run({ app, info }) {
    // By the package's name (its self-reference), not core/index.ts: the CLI's modules stay out of the index's import graph.
    const kiln = (await import('kiln-framework')) as Record<string, unknown>
    const models = await appModels(app)
    const names = Object.keys(models)
    info(
      `Kiln REPL for ${app.config.get('app.name', 'the app')} (${app.environment}). At hand: app, Route, Gate, Queue, db, kiln${names.length ? `, ${names.join(', ')}` : ''}. .exit or Ctrl+D leaves.`,
    )
    // A pipe is typed in line by line (see typePipedLines); a terminal is the REPL's own input, which holds keys back during an await.
    const piped = !process.stdin.isTTY
    const server = start({
      prompt: 'kiln> ',
      input: piped ? new PassThrough() : process.stdin,
      output: process.stdout,
      terminal: piped ? false : undefined,
      useGlobal: false,
      ignoreUndefined: true,
      // Ctrl+C stops a running line (a slow query, a loop) instead of the whole REPL.
      breakEvalOnSigint: true,
      // Node's REPL shows proxies as their target and handler; a model is one, and prints by its own inspect (class and attributes).
      writer: (value: unknown) => inspect(value, { showProxy: false, colors: server.useColors }),
    })
    Object.assign(server.context, { app, Route: kiln.Route, Gate: kiln.Gate, Queue: kiln.Queue, kiln, ...models })
    // `db` only when the app has a database: the getter loads it on first use, not at start.
    Object.defineProperty(server.context, 'db', { get: () => app.service('db'), configurable: true })
    // Each line is evaluated inside the app's scope, so facades and models find it.
    const evaluate = server.eval
    const wrapped: REPLEval = (code, context, file, callback) => runWithApp(app, () => evaluate.call(server, code, context, file, callback))
    // Typed read-only in newer @types/node, yet the documented way to wrap the default eval is to replace it.
    ;(server as unknown as { eval: REPLEval }).eval = wrapped
    const exited = new Promise<void>((resolve) => server.on('exit', resolve))
    if (piped) {
      await typePipedLines(server, process.stdin)
      server.close()
    }
    await exited
  },
})
