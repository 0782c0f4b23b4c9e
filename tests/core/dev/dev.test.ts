import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'

const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))

const routes = (answer: string) =>
  `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => '${answer}') })\n`

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** `kiln dev` in a child process, with everything it (and its servers) printed so far. */
function startDev(t: ExecutionContext, root: string, port: number) {
  const child = spawn(process.execPath, [BIN, 'dev', `--port=${port}`], { cwd: root, env: { ...process.env, APP_ENV: 'test' } })
  let output = ''
  // Colours are stripped, in case the environment forces them.
  const read = (chunk: Buffer) => (output += String(chunk).replace(/\x1b\[[0-9;]*m/g, ''))
  child.stdout.on('data', read)
  child.stderr.on('data', read)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return { child, exited, output: () => output }
}

/** Polls until `check` holds (the test's own timeout bounds the wait). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50))
}

async function answer(port: number): Promise<string | undefined> {
  try {
    return await (await fetch(`http://127.0.0.1:${port}/`)).text()
  } catch {
    return undefined
  }
}

function isAlive(child: ChildProcessWithoutNullStreams): boolean {
  return child.exitCode === null && child.signalCode === null
}

test('kiln dev serves, restarts on the same port after a change, survives a syntax error, and exits 0 on SIGTERM', async (t) => {
  const root = tempApp({ 'config/app.ts': 'export default {}\n', 'routes/web.ts': routes('one') })
  const port = await freePort()
  const dev = startDev(t, root, port)

  await until(async () => (await answer(port)) === 'one')

  writeFileSync(join(root, 'routes/web.ts'), routes('two'))
  await until(async () => (await answer(port)) === 'two')
  t.regex(dev.output(), /\[kiln dev\] routes\/web\.ts changed, restarting/)

  writeFileSync(join(root, 'routes/web.ts'), `${routes('three')}Route.get('/broken', () => {\n`)
  await until(() => /The server stopped \(exit code 1\)\. Kiln restarts it on the next change\./.test(dev.output()))
  t.regex(dev.output(), /routes\/web\.ts:\d+:\d+: ERROR/, 'the boot error names the file and line')
  t.true(isAlive(dev.child), 'kiln dev keeps running')
  t.is(await answer(port), undefined, 'nothing serves a broken app')

  writeFileSync(join(root, 'routes/web.ts'), routes('four'))
  await until(async () => (await answer(port)) === 'four')

  dev.child.kill('SIGTERM')
  t.is(await dev.exited, 0)
  t.is(await answer(port), undefined, 'the server stopped with it')
})

test('kiln dev ignores storage/, tmp/, node_modules/ and database files, and restarts for the .env file', async (t) => {
  const root = tempApp({ 'config/app.ts': 'export default {}\n', 'routes/web.ts': routes('one'), '.env': 'APP_NAME=Kiln\n' })
  const port = await freePort()
  const dev = startDev(t, root, port)
  await until(async () => (await answer(port)) === 'one')

  for (const dir of ['storage/logs', 'tmp', 'node_modules/some-package', 'database']) mkdirSync(join(root, dir), { recursive: true })
  writeFileSync(join(root, 'storage/logs/kiln.log'), '{}\n')
  writeFileSync(join(root, 'tmp/scratch.txt'), 'x')
  writeFileSync(join(root, 'node_modules/some-package/index.js'), 'export {}\n')
  writeFileSync(join(root, 'database/database.sqlite'), '')
  writeFileSync(join(root, 'database/database.sqlite-wal'), '')
  // Written last: when the server restarts for it, the files above had their chance to cause a restart first.
  writeFileSync(join(root, '.env'), 'APP_NAME=Kiln\nPORT_UNUSED=1\n')
  await until(() => /changed, restarting/.test(dev.output()))
  await until(async () => (await answer(port)) === 'one')

  const restarts = dev
    .output()
    .split('\n')
    .filter((line) => line.includes('changed, restarting'))
  t.deepEqual(restarts, ['[kiln dev] .env changed, restarting'])

  dev.child.kill('SIGINT')
  t.is(await dev.exited, 0)
})
