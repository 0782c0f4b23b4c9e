import test from 'ava'
import { createServer, type Server } from 'node:net'
import { kilnServe } from '../../fixtures/kiln-serve.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, STACK_FRAME } from './cli-harness.ts'

const appFiles = {
  'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
  'routes/web.ts': "import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => 'home') })\n",
}

/** A port another process holds, as a second `kiln serve` would meet it. */
async function takenPort(t: { teardown(fn: () => unknown): void }): Promise<number> {
  const holder: Server = createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => holder.close(resolve)))
  return (holder.address() as { port: number }).port
}

test('serve on a port in use: a clear message that suggests --port, exit code 1, no stack', async (t) => {
  const port = await takenPort(t)
  const root = tempApp(appFiles)
  const { code, stdout, stderr } = await bin(['serve', `--port=${port}`], root)
  t.is(code, 1)
  t.regex(stderr, new RegExp(`Port ${port} is already in use on 127\\.0\\.0\\.1`))
  t.regex(stderr, new RegExp(`kiln serve --port=${port + 1}`), 'the way out')
  t.notRegex(stderr, STACK_FRAME)
  t.notRegex(stderr, /EADDRINUSE|node:events|--verbose/, 'no raw error')
  t.notRegex(stdout, /Serving/)
})

test('serve on a port in use through PORT in .env: the same message', async (t) => {
  const port = await takenPort(t)
  const root = tempApp({ ...appFiles, '.env': `PORT=${port}\n` })
  const { code, stderr } = await bin(['serve'], root)
  t.is(code, 1)
  t.regex(stderr, /already in use.*--port=/)
  t.notRegex(stderr, STACK_FRAME)
})

test('dev on a port in use: the same message as serve, naming kiln dev', async (t) => {
  const port = await takenPort(t)
  const root = tempApp(appFiles)
  const { code, stderr } = await bin(['dev', `--port=${port}`], root)
  t.is(code, 1)
  t.regex(stderr, new RegExp(`Port ${port} is already in use on 127\\.0\\.0\\.1`))
  t.regex(stderr, new RegExp(`kiln dev --port=${port + 1}`), 'the way out')
  t.notRegex(stderr, STACK_FRAME)
})

test('the startup line names the app once: the starter, named Kiln, is not "Kiln is serving Kiln"', async (t) => {
  const server = await kilnServe(t, tempApp(appFiles), { APP_ENV: 'test', APP_NAME: 'Kiln' })
  const line = server
    .output()
    .split('\n')
    .find((text) => text.includes(server.url))!
  t.is(line, `Serving Kiln on ${server.url}/`)
  t.is(line.match(/Kiln/g)?.length, 1)
})
