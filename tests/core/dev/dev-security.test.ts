import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'

const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))

// A route file with a syntax error: the app cannot load, and kiln dev serves its load-error answers.
const BROKEN = `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => {\n  Route.get('/', () => 'secret-source-line'\n`
const WORKING = `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => {\n  Route.get('/', () => 'up')\n})\n`

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** `kiln dev` in a child process, with what it printed so far. */
function startDev(t: ExecutionContext, root: string, port: number, env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'dev', `--port=${port}`], { cwd: root, env: { ...process.env, ...env } })
  let output = ''
  const read = (chunk: Buffer) => (output += String(chunk).replace(/\x1b\[[0-9;]*m/g, ''))
  child.stdout.on('data', read)
  child.stderr.on('data', read)
  t.teardown(() => {
    if (!t.passed) console.error(`kiln dev printed:\n${output}`)
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return { output: () => output }
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25))
}

/** A request with any `Host` header (fetch does not let a test choose it); the body is read only when it ends. */
function get(port: number, path: string, host: string, accept = 'text/html'): Promise<{ status: number; type: string; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, accept }, timeout: 20_000 }, (res) => {
      const type = String(res.headers['content-type'] ?? '')
      // The event stream never ends: its headers are the answer.
      if (type.startsWith('text/event-stream')) {
        resolve({ status: res.statusCode!, type, body: '' })
        req.destroy()
        return
      }
      let body = ''
      res.on('data', (chunk: Buffer) => (body += String(chunk)))
      res.on('end', () => resolve({ status: res.statusCode!, type, body }))
    })
    req.on('error', () => resolve(undefined))
    req.on('timeout', () => req.destroy())
    req.end()
  })
}

test('kiln dev with APP_ENV=production and APP_DEBUG=false: a load error shows no source, path or message, only that the app did not load', async (t) => {
  t.timeout(120_000)
  const root = tempApp({ 'config/app.ts': 'export default {}\n', 'routes/web.ts': BROKEN })
  const port = await freePort()
  const dev = startDev(t, root, port, {
    APP_ENV: 'production',
    APP_DEBUG: 'false',
    APP_URL: `http://127.0.0.1:${port}`,
    APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`,
  })
  await until(() => /the application did not load/.test(dev.output()))
  t.regex(dev.output(), /routes\/web\.ts:\d+:\d+/, 'the terminal still names the file and line')

  const page = await get(port, '/', `127.0.0.1:${port}`)
  t.is(page?.status, 500)
  t.regex(page!.body, /The application did not load\. The terminal running kiln dev shows why\./)
  for (const leak of [root, 'routes/web.ts', 'secret-source-line', 'Expected']) t.false(page!.body.includes(leak), leak)

  const json = await get(port, '/', `localhost:${port}`, 'application/json')
  t.is(json?.status, 500)
  t.deepEqual(JSON.parse(json!.body), { message: 'The application did not load. The terminal running kiln dev shows why.' })
})

test('kiln dev answers its event stream and load-error page only under its own host names; any other Host is 403 (DNS rebinding)', async (t) => {
  t.timeout(120_000)
  const root = tempApp({ 'config/app.ts': 'export default {}\n', 'routes/web.ts': WORKING, '.env': 'APP_URL=http://shop.test:8080\n' })
  const port = await freePort()
  const dev = startDev(t, root, port, { APP_ENV: 'test', APP_DEBUG: 'true' })
  await until(async () => (await get(port, '/', `127.0.0.1:${port}`))?.body === 'up')

  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, 'shop.test:8080', `192.168.1.20:${port}`]) {
    const events = await get(port, '/__kiln/dev/events', host)
    t.is(events?.status, 200, host)
    t.regex(events!.type, /^text\/event-stream/, host)
  }
  for (const host of [
    `attacker.example:${port}`,
    'attacker.example',
    `localhost.attacker.example:${port}`,
    `127.0.0.1.nip.io:${port}`,
    'shop.test.attacker.example',
    'a@localhost',
    'localhost/x',
  ]) {
    const refused = await get(port, '/__kiln/dev/events', host, 'application/json')
    t.is(refused?.status, 403, host)
    t.regex(JSON.parse(refused!.body).message, /kiln dev does not answer this under the host/, host)
  }
  t.is((await get(port, '/', `attacker.example:${port}`))?.body, 'up', 'the app itself answers as it would in production')

  // While the app cannot load, its error page (with APP_DEBUG, the source) is the dev server's own answer too.
  writeFileSync(`${root}/routes/web.ts`, BROKEN)
  await until(() => /the application did not load/.test(dev.output()))
  const foreign = await get(port, '/', `attacker.example:${port}`)
  t.is(foreign?.status, 403)
  t.false(foreign!.body.includes('secret-source-line'))
  const own = await get(port, '/', `localhost:${port}`)
  t.is(own?.status, 500)
  t.regex(own!.body, /The application did not load/)
})
