import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'

const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))

// Each answer names the process that served it, so a test tells a reload in place from a restart.
const routes = (answer: string) =>
  `import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => {\n  Route.get('/', () => \`${answer}@\${process.pid}\`)\n  Route.get('/page', () => view('page'))\n  Route.get('/exit', () => {\n    setTimeout(() => process.exit(3), 20)\n    return 'bye'\n  })\n})\n`

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** `kiln dev` in a child process, with everything it (and its servers) printed so far. */
function startDev(t: ExecutionContext, root: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'dev', `--port=${port}`], { cwd: root, env: { ...process.env, APP_ENV: 'test', ...env } })
  let output = ''
  // Colours are stripped, in case the environment forces them.
  const read = (chunk: Buffer) => (output += String(chunk).replace(/\x1b\[[0-9;]*m/g, ''))
  child.stdout.on('data', read)
  child.stderr.on('data', read)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(() => {
    // What kiln dev printed tells why a failed test waited in vain.
    if (!t.passed) console.error(`kiln dev printed:\n${output}`)
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return { child, exited, output: () => output }
}

/** Polls until `check` holds (the test's own timeout bounds the wait). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25))
}

/** Asks for a path all along, on fresh connections, and keeps every failure to connect. */
function pollConnections(port: number) {
  const refused: string[] = []
  let running = true
  const done = (async () => {
    while (running) {
      try {
        // A request left hanging would count too (the bound only keeps the test from waiting forever).
        await (await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(20_000) })).text()
      } catch (error) {
        refused.push(String((error as Error).cause ?? error))
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  return {
    refused,
    stop: async () => {
      running = false
      await done
    },
  }
}

async function get(port: number, path = '/', accept = 'text/plain'): Promise<{ status: number; body: string } | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { accept }, signal: AbortSignal.timeout(20_000) })
    return { status: response.status, body: await response.text() }
  } catch {
    return undefined
  }
}
const answer = async (port: number, path = '/') => (await get(port, path))?.body

/** A `kiln dev` of an app with an `.env`, once its first server process answers; `pid` is that process's. */
async function devServing(t: ExecutionContext) {
  const root = tempApp({ 'config/app.ts': 'export default {}\n', 'routes/web.ts': routes('one'), '.env': 'APP_NAME=Kiln\n' })
  const port = await freePort()
  const dev = startDev(t, root, port)
  await until(async () => (await answer(port))?.startsWith('one@') === true)
  return { root, port, dev, pid: (await answer(port))!.split('@')[1] }
}

test('kiln dev reloads routes and views in the same process, shows a syntax error until it is fixed, refuses no connection, and exits 0', async (t) => {
  // Two Node processes start through tsx: slow on a loaded machine, though nothing here waits on a clock.
  t.timeout(120_000)
  const root = tempApp({ 'config/app.ts': 'export default {}\n', 'routes/web.ts': routes('one'), 'resources/views/page.hbs': '<p>first</p>\n' })
  const port = await freePort()
  // With APP_DEBUG, a load error's page and JSON show the error (without it, tests/core/dev/dev-security.test.ts).
  const dev = startDev(t, root, port, { APP_DEBUG: 'true' })

  await until(async () => (await answer(port))?.startsWith('one@') === true)
  const pid = (await answer(port))!.split('@')[1]
  const poll = pollConnections(port)

  writeFileSync(join(root, 'routes/web.ts'), routes('two'))
  await until(async () => (await answer(port)) === `two@${pid}`)
  t.regex(dev.output(), /\[kiln dev\] routes\/web\.ts changed: the application reloaded in \d+ ms/)

  t.is((await get(port, '/page'))?.body, '<p>first</p>\n')
  writeFileSync(join(root, 'resources/views/page.hbs'), '<p>second</p>\n')
  await until(async () => (await get(port, '/page'))?.body === '<p>second</p>\n')
  t.regex(dev.output(), /resources\/views\/page\.hbs changed: views refreshed/)

  writeFileSync(join(root, 'routes/web.ts'), `${routes('three')}Route.get('/broken', () => {\n`)
  await until(() => /routes\/web\.ts changed: the application did not load/.test(dev.output()))
  t.regex(dev.output(), /at .*routes\/web\.ts:\d+:\d+/, 'the terminal names the file and line')
  const json = await get(port, '/', 'application/json')
  t.is(json?.status, 500)
  t.regex(JSON.parse(json!.body).message, /^The application did not load: .*routes\/web\.ts:\d+:\d+/)
  const page = await get(port, '/', 'text/html')
  t.is(page?.status, 500)
  t.regex(page!.body, /The application did not load/, 'browsers get the error page')
  t.regex(page!.body, /data-kiln-dev/, 'with the script that reloads it once the file is fixed')

  writeFileSync(join(root, 'routes/web.ts'), routes('four'))
  await until(async () => (await answer(port)) === `four@${pid}`)
  await poll.stop()
  t.deepEqual(poll.refused, [], 'no connection was refused')

  dev.child.kill('SIGTERM')
  t.is(await dev.exited, 0)
  t.is(await answer(port), undefined, 'the server stopped with it')
})

test('kiln dev ignores storage/, tmp/, node_modules/ and database files, and restarts the process for .env with the port kept open', async (t) => {
  t.timeout(120_000)
  const { root, port, dev, pid } = await devServing(t)
  const poll = pollConnections(port)

  for (const dir of ['storage/logs', 'tmp', 'node_modules/some-package', 'database']) mkdirSync(join(root, dir), { recursive: true })
  writeFileSync(join(root, 'storage/logs/kiln.log'), '{}\n')
  writeFileSync(join(root, 'tmp/scratch.txt'), 'x')
  writeFileSync(join(root, 'node_modules/some-package/index.js'), 'export {}\n')
  writeFileSync(join(root, 'database/database.sqlite'), '')
  writeFileSync(join(root, 'database/database.sqlite-wal'), '')
  // Written last: when the server restarts for it, the files above had their chance to cause a reload first.
  writeFileSync(join(root, '.env'), 'APP_NAME=Kiln\nPORT_UNUSED=1\n')
  await until(() => /changed, restarting/.test(dev.output()))
  await until(async () => (await answer(port))?.startsWith('one@') === true && !(await answer(port))!.endsWith(`@${pid}`))
  const restarted = (await answer(port))!.split('@')[1]
  await poll.stop()
  t.deepEqual(poll.refused, [], 'no connection was refused during the restart')

  // A server process that dies (an exception nothing caught, a process.exit) is replaced, at once or on the next save.
  t.is(await answer(port, '/exit'), 'bye')
  await until(() => /The server stopped \(exit code 3\)\. Kiln starts it again/.test(dev.output()))
  writeFileSync(join(root, 'routes/web.ts'), routes('two'))
  await until(async () => (await answer(port))?.startsWith('two@') === true)
  t.not((await answer(port))!.split('@')[1], restarted)

  const lines = dev
    .output()
    .split('\n')
    .filter((line) => line.includes('changed'))
  t.deepEqual(lines.slice(0, 1), ['[kiln dev] .env changed, restarting the server'], 'none of the ignored files caused a reload')

  dev.child.kill('SIGINT')
  t.is(await dev.exited, 0)
})

test('kiln dev: a connection handed to the old server just before a restart still gets its answer from it', async (t) => {
  t.timeout(120_000)
  const { root, port, dev, pid } = await devServing(t)

  // Opened (and so handed to the current server process) but silent until that process has been told to stop.
  const socket = connect(port, '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  let received = ''
  socket.on('data', (chunk) => (received += String(chunk)))
  const ended = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(received))
    socket.once('error', (error) => resolve(`${received}${String(error)}`))
  })

  writeFileSync(join(root, '.env'), 'APP_NAME=Kiln\nPORT_UNUSED=1\n')
  await until(async () => (await answer(port))?.endsWith(`@${pid}`) === false)
  // The successor answers, so the old process has been sent SIGTERM; a moment for it to take it.
  await new Promise((resolve) => setTimeout(resolve, 300))
  socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
  const response = await ended
  t.regex(response, /^HTTP\/1\.1 200/, 'answered, not reset')
  t.true(response.endsWith(`one@${pid}`), 'by the process the connection was handed to')

  dev.child.kill('SIGTERM')
  t.is(await dev.exited, 0)
})
