import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { kilnServe, type ServeProcess } from '../../fixtures/kiln-serve.ts'
import { kilnWorker, type WorkerProcess } from '../../fixtures/kiln-worker.ts'
import { mimePart, startSmtpServer } from '../../fixtures/smtp-server.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { TestSocket } from '../../drivers/broadcast/websocket/rt-fixtures.ts'
import { bin } from '../cli/cli-harness.ts'

// A deployed app as the docs describe it: web processes (`kiln serve`) whose websocket server relays through Redis
// (`scaling.enabled`), and a separate `kiln queue:work` that broadcasts with the `kv` driver on the same Redis and prefix
// (both default to APP_NAME as a slug: unique per test, as is the queue's key prefix). The app's config names no job.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const FILES: Record<string, string> = {
  'storage/.gitignore': '*\n',
  'config/app.ts': `import { defineConfig } from 'kiln-framework'
import { broadcasting } from 'kiln-framework/broadcasting'
import kvDriver from 'kiln-framework/drivers/kv'
import websocketDriver from 'kiln-framework/drivers/websocket'
import { mail } from 'kiln-framework/mail'
export default defineConfig({ plugins: [mail(), broadcasting(), websocketDriver, kvDriver] })
`,
  'config/broadcasting.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig(({ env }) => ({
  default: env.get('BROADCAST_CONNECTION', 'rt'),
  connections: {
    rt: { driver: 'rt', key: 'worker-key', secret: 'worker-secret', scaling: { enabled: true, url: env.get('REDIS_URL') } },
    kv: { driver: 'kv', url: env.get('REDIS_URL') },
  },
}))
`,
  'config/mail.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig(({ env }) => ({
  default: 'smtp',
  mailers: { smtp: { driver: 'smtp', host: '127.0.0.1', port: env.number('MAIL_PORT', 587) } },
  from: { address: 'shop@example.com', name: 'Shop' },
}))
`,
  'config/events.ts': `import { defineConfig } from 'kiln-framework'
import { OrderPlaced, RecordOrder } from '../app/events/order-placed.ts'
export default defineConfig({ listen: [[OrderPlaced, [RecordOrder]]] })
`,
  'config/logging.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ level: 'info' })
`,
  'app/events/order-shipped.ts': `import { ShouldBroadcast } from 'kiln-framework/broadcasting'
export class OrderShipped extends ShouldBroadcast {
  constructor(public orderId: number) { super() }
  broadcastOn() { return ['orders'] }
}
`,
  'app/events/order-placed.ts': `import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { currentApp, Event } from 'kiln-framework'
export class OrderPlaced extends Event {
  constructor(public orderId: number) { super() }
}
/** A queued listener: it leaves a file behind, with the process that ran it. */
export class RecordOrder {
  static queued = true
  handle(event: OrderPlaced) {
    writeFileSync(join(currentApp().root, 'storage', \`order-\${event.orderId}.json\`), JSON.stringify({ pid: process.pid, order: event.orderId }))
  }
}
`,
  'app/jobs/make-invoice.ts': `import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { currentApp, Job } from 'kiln-framework'
export class MakeInvoice extends Job {
  constructor(public orderId: number) { super() }
  handle() {
    writeFileSync(join(currentApp().root, 'storage', \`invoice-\${this.orderId}.json\`), JSON.stringify({ pid: process.pid }))
  }
}
`,
  // Beside the routes, not in app/jobs: the web process knows it (it dispatches it), a worker cannot find it.
  'app/support/ship-label.ts': `import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { currentApp, Job } from 'kiln-framework'
export class ShipLabel extends Job {
  static tries = 3
  constructor(public orderId: number) { super() }
  handle() { writeFileSync(join(currentApp().root, 'storage', \`label-\${this.orderId}.json\`), '{}') }
}
`,
  'app/mail/welcome.ts': `import { Mailable } from 'kiln-framework/mail'
export class Welcome extends Mailable {
  constructor(public name: string) { super() }
  build() { return this.subject('Welcome to the shop').html(\`<p>Hello \${this.name}, your account is ready.</p>\`) }
}
`,
  'routes/api.ts': `import { defineRoutes } from 'kiln-framework'
import { Mail } from 'kiln-framework/mail'
import { OrderPlaced } from '../app/events/order-placed.ts'
import { OrderShipped } from '../app/events/order-shipped.ts'
import { MakeInvoice } from '../app/jobs/make-invoice.ts'
import { Welcome } from '../app/mail/welcome.ts'
import { ShipLabel } from '../app/support/ship-label.ts'
export default defineRoutes((Route) => {
  Route.post('/orders/{id}/ship', async ({ params }) => { await OrderShipped.dispatch(Number(params.id)); return { queued: true } })
  Route.post('/orders/{id}/place', async ({ params }) => { await OrderPlaced.dispatch(Number(params.id)); return { queued: true } })
  Route.post('/orders/{id}/invoice', async ({ params }) => { await MakeInvoice.dispatch(Number(params.id)); return { queued: true } })
  Route.post('/labels/{id}', async ({ params }) => { await ShipLabel.dispatch(Number(params.id)); return { queued: true } })
  Route.post('/welcome/{name}', async ({ params }) => {
    await Mail.to(\`\${params.name}@example.com\`).queue(new Welcome(String(params.name)))
    return { queued: true }
  })
})
`,
}

interface Deployment {
  root: string
  server: ServeProcess
  worker: WorkerProcess
  smtp: Awaited<ReturnType<typeof startSmtpServer>>
}

/** The temp app served by `kiln serve`, with `kiln queue:work` beside it, both on Redis under a name of their own. */
async function deploy(t: { teardown(fn: () => unknown): void }): Promise<Deployment> {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  const name = `worker-${randomBytes(4).toString('hex')}`
  const root = tempApp({
    ...FILES,
    '.env': `APP_KEY=${generateAppKey()}\nAPP_NAME=${name}\nQUEUE_CONNECTION=redis\nREDIS_URL=${REDIS_URL}\nMAIL_PORT=${smtp.port}\n`,
  })
  const [server, worker] = await Promise.all([
    kilnServe(t, root, { APP_ENV: 'test' }),
    // What a worker process of the docs runs with: broadcasting through Redis (kv), not a socket server of its own.
    kilnWorker(t, root, { APP_ENV: 'test', BROADCAST_CONNECTION: 'kv' }),
  ])
  return { root, server, worker, smtp }
}

// The first three tests share one deployment (one web process, one worker): fewer processes booting at once on a
// loaded machine. Each uses channels, addresses and files of its own.
const cleanups: Array<() => unknown> = []
let shared: Promise<Deployment> | undefined
const sharedDeployment = () => (shared ??= deploy({ teardown: (fn) => void cleanups.push(fn) }))
test.after.always(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function post(server: ServeProcess, path: string): Promise<void> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { accept: 'application/json' } })
  if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
}

async function waitForFile(path: string, worker: WorkerProcess): Promise<string> {
  for (let i = 0; i < 1000 && !existsSync(path); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  if (!existsSync(path)) throw new Error(`${path} was not written. The worker wrote:\n${worker.output()}`)
  return readFileSync(path, 'utf8')
}

const errorLines = (worker: WorkerProcess) => worker.logLines().filter((line) => line.level >= 50)

test('a ShouldBroadcast event queued by a request is broadcast by the worker process and reaches a socket on the web process', async (t) => {
  const { server, worker } = await sharedDeployment()
  const socket = new TestSocket(`${server.url.replace('http', 'ws')}/broadcasting/socket`)
  t.teardown(() => socket.raw.terminate())
  await socket.ready()
  socket.send({ event: 'subscribe', data: { channel: 'orders' } })
  await socket.event('svc:subscription_succeeded', 'orders')

  await post(server, '/orders/42/ship')
  const frame = await socket.event('OrderShipped', 'orders', 20_000).catch((error: Error) => {
    throw new Error(`${error.message}\nThe worker wrote:\n${worker.output()}`)
  })
  t.like(frame.data, { orderId: 42 })
  t.deepEqual(errorLines(worker), [])
})

test('a mail queued by a request is sent by the worker process through the SMTP server', async (t) => {
  const { server, worker, smtp } = await sharedDeployment()
  await post(server, '/welcome/ada')
  const mail = await Promise.race([
    smtp.next(),
    worker.waitForLog((line) => line.level >= 50).then(() => Promise.reject(new Error(`The worker logged an error:\n${worker.output()}`))),
  ])
  t.deepEqual(mail.to, ['ada@example.com'])
  t.regex(mail.raw, /^Subject: Welcome to the shop\r$/m)
  t.regex(mimePart(mail.raw, 'text/html'), /Hello ada, your account is ready/)
  t.deepEqual(errorLines(worker), [])
})

test("a queued listener from config/events.ts and a job of the app's app/jobs run in the worker process, with no line in config/queue.ts", async (t) => {
  const { root, server, worker } = await sharedDeployment()
  await post(server, '/orders/7/place')
  await post(server, '/orders/7/invoice')
  const listener = JSON.parse(await waitForFile(join(root, 'storage/order-7.json'), worker)) as { pid: number; order: number }
  const invoice = JSON.parse(await waitForFile(join(root, 'storage/invoice-7.json'), worker)) as { pid: number }
  t.is(listener.order, 7)
  t.not(listener.pid, process.pid)
  t.is(invoice.pid, listener.pid, 'both ran in the worker')
  t.deepEqual(errorLines(worker), [])
})

test('a job the worker cannot find is one log line naming it and what to do, kept as failed; after the fix, queue:retry runs it', async (t) => {
  const { root, server, worker } = await deploy(t)
  await post(server, '/labels/3')
  await worker.waitForLog((line) => /ShipLabel/.test(line.msg))
  // Nothing else comes: no retries (they cannot help), no failed() hook.
  const env = { APP_ENV: 'test' }
  let failed = await bin(['queue:failed', '--connection=redis'], root, env)
  for (let i = 0; i < 20 && !/ShipLabel/.test(failed.stdout); i++) failed = await bin(['queue:failed', '--connection=redis'], root, env)
  t.regex(failed.stdout, /^default:\d+\s+ShipLabel\s+\S+\s+1\s+Unknown job "ShipLabel"/m, 'kept in the failed set after one attempt')
  const errors = errorLines(worker)
  t.is(errors.length, 1, worker.output())
  t.is(errors[0]!.job, 'ShipLabel')
  const id = /^(default:\d+)/m.exec(failed.stdout)![1]!
  t.regex(errors[0]!.msg, /^Unknown job "ShipLabel": .*app\/jobs\/.*app\.service\('queue'\)\.register\(ShipLabel\)/)
  t.true(errors[0]!.msg.endsWith(`run kiln queue:retry ${id}.`), errors[0]!.msg)
  t.notRegex(worker.output(), /failed\(\) hook/)

  // The fix: the job moves to app/jobs; a new worker finds it there, and the retried job runs.
  writeFileSync(join(root, 'app/jobs/ship-label.ts'), readFileSync(join(root, 'app/support/ship-label.ts')))
  t.is(await worker.stop(), 0)
  const fixed = await kilnWorker(t, root, { APP_ENV: 'test', BROADCAST_CONNECTION: 'kv' })
  const retried = await bin(['queue:retry', id, '--connection=redis'], root, env)
  t.is(retried.code, 0, retried.stderr)
  await waitForFile(join(root, 'storage/label-3.json'), fixed)
  t.deepEqual(errorLines(fixed), [])
})
