import { execFile } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runCli } from '../../../core/index.ts'
import { kilnServe } from '../../fixtures/kiln-serve.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))

function capture() {
  let text = ''
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk)
      done()
    },
  })
  return { stream, text: () => text }
}

async function cli(argv: string[], cwd: string, env: Record<string, string> = { APP_ENV: 'test' }) {
  const stdout = capture()
  const stderr = capture()
  const code = await runCli(argv, { cwd, env, stdout: stdout.stream, stderr: stderr.stream })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

const appFiles = {
  'config/app.ts': `import { defineConfig, definePlugin, defineCommand } from 'kiln-framework'\nconst extra = definePlugin({ name: 'extra', boot(app) { app.commands.register(defineCommand({ name: 'extra:hello', description: 'Say hello', flags: { times: { type: 'number', description: 'How many', default: 1 } }, run: ({ flags, info }) => { info('hello x' + flags.times) } })) } })\nexport default defineConfig({ plugins: [extra] })\n`,
  'routes/web.ts': `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => 'home').name('home') })\n`,
}

test('--help lists kernel and plugin commands; <cmd> --help shows flags', async (t) => {
  const root = tempApp(appFiles)
  const help = await cli(['--help'], root)
  t.is(help.code, 0)
  for (const name of ['serve', 'key:generate', 'route:list', 'vendor:publish', 'new', 'extra:hello']) t.regex(help.stdout, new RegExp(`\\b${name}\\b`))
  const one = await cli(['extra:hello', '--help'], root)
  t.is(one.code, 0)
  t.regex(one.stdout, /--times=<number>/)
  const ran = await cli(['extra:hello', '--times=3'], root)
  t.is(ran.stdout.trim(), 'hello x3')
})

test('an unknown command exits 1 and suggests the nearest; bad flags exit 1 with a message', async (t) => {
  const root = tempApp(appFiles)
  const unknown = await cli(['route:lst'], root)
  t.is(unknown.code, 1)
  t.regex(unknown.stderr, /Unknown command "route:lst"\. Did you mean "route:list"\?/)
  const badFlag = await cli(['route:list', '--nope'], root)
  t.is(badFlag.code, 1)
  t.regex(badFlag.stderr, /nope/)
  const badNumber = await cli(['extra:hello', '--times=many'], root)
  t.is(badNumber.code, 1)
  t.regex(badNumber.stderr, /--times must be a number/)
})

test('route:list prints routes as a table and JSON', async (t) => {
  const root = tempApp(appFiles)
  const table = await cli(['route:list'], root)
  t.regex(table.stdout, /GET\s+\/\s+home\s+/)
  const json = JSON.parse((await cli(['route:list', '--json'], root)).stdout)
  t.deepEqual(json[0], { method: 'GET', path: '/', name: 'home', handler: 'closure', middleware: 'web' })
})

test('key:generate writes APP_KEY into .env, refuses to replace it without --force, and works when boot would fail', async (t) => {
  const root = tempApp({ ...appFiles, '.env.example': 'APP_NAME=Demo\nAPP_KEY=\n' })
  const first = await cli(['key:generate'], root, { APP_ENV: 'production' })
  t.is(first.code, 0, first.stderr)
  const env = readFileSync(join(root, '.env'), 'utf8')
  t.regex(env, /^APP_KEY=base64:[A-Za-z0-9+/]{43}=$/m)
  t.regex(env, /APP_NAME=Demo/)
  const again = await cli(['key:generate'], root, { APP_ENV: 'production' })
  t.is(again.code, 1)
  t.regex(again.stderr, /--force/)
  t.is((await cli(['key:generate', '--force'], root, { APP_ENV: 'production' })).code, 0)
  t.not(readFileSync(join(root, '.env'), 'utf8'), env)
})

test('vendor:publish lists tags, copies files, and never overwrites without --force', async (t) => {
  const stub = tempApp({ 'stubs/thing.ts': 'export default { a: 1 }\n', 'stubs/migrations/0001_x.ts': 'export {}\n' })
  const root = tempApp({
    'config/app.ts': `import { defineConfig, definePlugin } from 'kiln-framework'\nconst p = definePlugin({ name: 'pub', boot(app) { app.service('publisher').publishes('pub-config', [{ from: ${JSON.stringify(join(stub, 'stubs/thing.ts'))}, to: 'config/thing.ts' }]); app.service('publisher').publishes('pub-migrations', [{ from: ${JSON.stringify(join(stub, 'stubs/migrations'))}, to: 'database/migrations' }]) } })\nexport default defineConfig({ plugins: [p] })\n`,
  })
  const list = await cli(['vendor:publish'], root)
  t.regex(list.stdout, /pub-config/)
  t.regex(list.stdout, /pub-migrations/)
  t.is((await cli(['vendor:publish', '--tag=pub-migrations'], root)).code, 0)
  t.true(existsSync(join(root, 'database/migrations/0001_x.ts')))
  await cli(['vendor:publish', '--tag=pub-config'], root)
  writeFileSync(join(root, 'config/thing.ts'), 'export default { a: 2 }\n')
  const skipped = await cli(['vendor:publish', '--tag=pub-config'], root)
  t.regex(skipped.stderr, /Skipped config\/thing\.ts/)
  t.regex(readFileSync(join(root, 'config/thing.ts'), 'utf8'), /a: 2/)
  await cli(['vendor:publish', '--tag=pub-config', '--force'], root)
  t.regex(readFileSync(join(root, 'config/thing.ts'), 'utf8'), /a: 1/)
  const unknown = await cli(['vendor:publish', '--tag=nope'], root)
  t.is(unknown.code, 1)
  t.regex(unknown.stderr, /Unknown tag "nope"/)
})

test('new <dir> copies the starter app with a fresh key and refuses a non-empty folder', async (t) => {
  const parent = tempApp()
  const made = await cli(['new', 'shop'], parent, {})
  t.is(made.code, 0, made.stderr)
  const target = join(parent, 'shop')
  for (const file of ['config/app.ts', 'routes/web.ts', 'routes/api.ts', '.env.example', 'package.json']) t.true(existsSync(join(target, file)), file)
  t.regex(readFileSync(join(target, '.env'), 'utf8'), /^APP_KEY=base64:/m)
  // Debug pages for local work in the new app's .env only; the example a server is deployed from keeps them off.
  t.regex(readFileSync(join(target, '.env'), 'utf8'), /^APP_DEBUG=true$/m)
  t.regex(readFileSync(join(target, '.env.example'), 'utf8'), /^APP_DEBUG=false$/m)
  t.regex(made.stdout, /Next steps/)
  mkdirSync(join(parent, 'full'))
  writeFileSync(join(parent, 'full', 'x'), '')
  const refused = await cli(['new', 'full'], parent, {})
  t.is(refused.code, 1)
  t.regex(refused.stderr, /not empty/)
})

test('the real bin: --help lists commands, an unknown command exits 1', async (t) => {
  const root = tempApp(appFiles)
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args], { cwd: root, env: { ...process.env, APP_ENV: 'test' } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      )
    })
  const help = await run(['--help'])
  t.is(help.code, 0, help.stderr)
  t.regex(help.stdout, /route:list/)
  const bad = await run(['serv'])
  t.is(bad.code, 1)
  t.regex(bad.stderr, /Did you mean "serve"/)
})

test('the real bin: serve answers HTTP, then SIGTERM shuts it down gracefully with exit 0', async (t) => {
  const server = await kilnServe(t, tempApp(appFiles), { APP_ENV: 'test' })
  const res = await fetch(`${server.url}/`)
  t.is(await res.text(), 'home')
  server.kill()
  t.is(await server.exited, 0)
})

test('the real bin: a promise a route forgot to await rejects; the server logs it once and keeps serving', async (t) => {
  const root = tempApp({
    ...appFiles,
    'routes/web.ts': `import { defineRoutes } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/', () => 'home')
  Route.get('/forgot', () => { void Promise.reject(new Error('nobody awaited this')); return 'answered' })
})
`,
    'config/logging.ts': `export default { level: 'info' }\n`,
  })
  const server = await kilnServe(t, root, { APP_ENV: 'test' })
  const url = server.url
  t.is(await (await fetch(`${url}/forgot`)).text(), 'answered')
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.is(await (await fetch(`${url}/`)).text(), 'home', `the server is gone: ${server.output()}`)
  t.regex(server.output(), /nobody awaited this/)
  server.kill()
  t.is(await server.exited, 0)
})
