import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { generateAppKey } from '../../../core/index.ts'
import { kilnServe } from '../../fixtures/kiln-serve.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))

/** An app whose `log:hello` command writes one line with a secret in it, on stdout and in a file. */
function loggingApp(pretty?: boolean): string {
  return tempApp({
    'config/app.ts': `import { defineConfig, definePlugin, defineCommand } from 'kiln-framework'
const hello = definePlugin({ name: 'hello', boot(app) {
  app.commands.register(defineCommand({ name: 'log:hello', description: 'Log a line', run: ({ app }) => { app.logger.info({ order: 42, password: 'hunter2' }, 'hello from the app') } }))
} })
export default defineConfig({ plugins: [hello] })
`,
    'routes/web.ts': `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/orders', () => 'orders') })\n`,
    'config/logging.ts': `export default { level: 'info', channels: ['stdout', 'file'], file: { path: 'storage/logs/kiln.log' }${pretty === undefined ? '' : `, pretty: ${pretty}`} }\n`,
  })
}

/** Runs `kiln log:hello` with stdout on a pipe, or on a terminal (through `script`, which gives it a pseudo-terminal). */
function run(root: string, env: Record<string, string>, terminal = false): Promise<string> {
  const [file, args] = terminal ? ['script', ['-qec', `"${process.execPath}" "${BIN}" log:hello`, '/dev/null']] : [process.execPath, [BIN, 'log:hello']]
  return new Promise((resolve, reject) => {
    execFile(file as string, args as string[], { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '')),
    )
  })
}

const APP_KEY = generateAppKey()
const development = { APP_ENV: 'development', APP_KEY }
const production = { APP_ENV: 'production', APP_KEY, APP_URL: 'https://shop.example.com' }

function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

function assertPretty(t: import('ava').ExecutionContext, output: string): void {
  t.regex(output, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(Kiln\): hello from the app$/m)
  t.regex(output, /order: 42/)
  t.regex(output, /password: "\[redacted\]"/)
  t.false(output.includes('hunter2'))
  t.false(output.trimStart().startsWith('{'), 'not JSON')
}

test('development at a terminal: stdout is pretty, the file stays JSON', async (t) => {
  const root = loggingApp()
  assertPretty(t, await run(root, development, true))
  const [line] = jsonLines(readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8'))
  t.is(line!.msg, 'hello from the app')
  t.is(line!.password, '[redacted]')
})

test('development on a pipe, and production at a terminal: stdout is JSON lines', async (t) => {
  const root = loggingApp()
  for (const output of [await run(root, development), await run(root, production, true)]) {
    const [line] = jsonLines(output)
    t.is(line!.msg, 'hello from the app')
    t.is(line!.order, 42)
    t.is(line!.password, '[redacted]')
  }
})

test('logging.pretty decides: true prints pretty lines on a pipe, false prints JSON at a terminal', async (t) => {
  assertPretty(t, await run(loggingApp(true), development))
  const [line] = jsonLines(await run(loggingApp(false), development, true))
  t.is(line!.msg, 'hello from the app')
})

test('pretty request lines read METHOD path status time; the file keeps the JSON record', async (t) => {
  const root = loggingApp(true)
  const server = await kilnServe(t, root, development)
  t.is(await (await fetch(`${server.url}/orders`)).text(), 'orders')
  server.kill()
  await server.exited
  const output = server.output()
  t.regex(output, /^\[[\d:.]+\] INFO \(Kiln\): GET \/orders 200 [\d.]+ms$/m)
  t.false(output.includes('statusCode'))
  const record = jsonLines(readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8')).find((line) => line.msg === 'request completed')
  t.like(record, { req: { method: 'GET', url: '/orders' }, res: { statusCode: 200 } })
})
