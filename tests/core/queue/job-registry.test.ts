import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { CallQueuedListener, createApp, Event, Job, KilnError, runWithApp, serializeJob, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const LOG = 'storage/logs/kiln.log'

/** An app logging JSON lines to its storage/logs/kiln.log, with `files` in its folder. */
async function logApp(t: { teardown(fn: () => unknown): void }, files: Record<string, string> = {}): Promise<Application> {
  const app = await createApp({
    root: tempApp(files),
    env: { APP_ENV: 'test' },
    config: { logging: { level: 'info', channels: ['file'], file: { path: LOG } } },
  })
  t.teardown(() => app.close())
  return app
}

function logLines(app: Application): Array<{ level: number; msg: string; [key: string]: unknown }> {
  const file = join(app.root, LOG)
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

// Counts imports of the app/jobs module below (an ES module runs once per process; each test has its own folder).
declare global {
  var kilnJobImports: Record<string, number> | undefined
}
const jobsFolder = (tag: string) => ({
  'app/jobs/make-invoice.ts': `import { Job } from 'kiln-framework'
globalThis.kilnJobImports = { ...globalThis.kilnJobImports, ${tag}: (globalThis.kilnJobImports?.${tag} ?? 0) + 1 }
export class MakeInvoice extends Job {
  constructor(public orderId: number) { super() }
  handle() {}
}
export const notAJob = 1
`,
  'app/jobs/billing/close-month.ts': `import { Job } from 'kiln-framework'
export class CloseMonth extends Job {
  static jobName = 'billing.CloseMonth'
  handle() {}
}
`,
})

test('the jobs of app/jobs are imported on the first name the app does not know, once; booting and dispatching never import them', async (t) => {
  const app = await logApp(t, jobsFolder('lazy'))
  const jobs = app.service('queue').jobs
  t.is(globalThis.kilnJobImports?.lazy, undefined, 'boot imports nothing from app/jobs')
  t.is(jobs.get('MakeInvoice'), undefined)
  const MakeInvoice = await jobs.find('MakeInvoice')
  t.is(MakeInvoice.name, 'MakeInvoice')
  t.is((await jobs.find('billing.CloseMonth')).name, 'CloseMonth', 'sub-folders, by jobName')
  await t.throwsAsync(jobs.find('Nope'), { instanceOf: KilnError, code: 'E_UNKNOWN_JOB', message: /^Unknown job "Nope"/ })
  t.is(globalThis.kilnJobImports?.lazy, 1, 'imported once')
  t.false(jobs.names().includes('notAJob'))
})

test("each app has its own registry: a job one app registers is unknown to another; the framework's jobs are known to both", async (t) => {
  class ExportReport extends Job {
    handle() {}
  }
  const web = await logApp(t)
  const other = await logApp(t)
  web.service('queue').register(ExportReport)
  t.is(web.service('queue').jobs.get('ExportReport'), ExportReport)
  t.is(other.service('queue').jobs.get('ExportReport'), undefined)
  for (const app of [web, other]) t.true(app.service('queue').jobs.names().includes('CallQueuedListener'), 'the kernel registers its own job')
})

test('two job classes under one name are refused at registration (or dispatch): a worker could not tell them apart', async (t) => {
  const app = await logApp(t)
  const first = class Sync extends Job {
    handle() {}
  }
  const second = class Sync extends Job {
    handle() {}
  }
  const renamed = class Sync extends Job {
    static jobName = 'crm.Sync'
    handle() {}
  }
  const queue = app.service('queue')
  queue.register(first)
  queue.register(first)
  t.throws(() => queue.register(second), { instanceOf: KilnError, code: 'E_JOB_NAME_TAKEN', message: /Two job classes are named "Sync".*static jobName/ })
  await t.throwsAsync(
    runWithApp(app, async () => {
      await second.dispatch()
    }),
    { code: 'E_JOB_NAME_TAKEN' },
  )
  t.notThrows(() => queue.register(renamed))
})

test('an unknown job on an in-process queue fails at once: no retries, no failed() hook, one log line; it is listed by Queue.failed()', async (t) => {
  const app = await logApp(t)
  const queue = app.service('queue')
  await queue.connections.connection('memory').push({ job: 'Ghost', data: { id: 1 }, attempts: 0 }, { queue: 'default', delay: 0, tries: 3, backoff: 0 })
  await queue.flush()
  t.is(queue.failed().length, 1)
  t.is(queue.failed()[0]!.job, 'Ghost')
  const errors = logLines(app).filter((line) => line.level >= 50)
  t.is(errors.length, 1)
  t.like(errors[0], { job: 'Ghost', code: 'E_UNKNOWN_JOB' })
  t.regex(errors[0]!.msg, /^Unknown job "Ghost": .*app\/jobs\/.*kiln queue:retry <id> \(kiln queue:failed lists the ids\)\.$/)
})

class Shipped extends Event {
  constructor(public orderId: number) {
    super()
  }
}
class ShippedExpress extends Shipped {
  express = true
}
const ran: string[] = []
class Notify {
  static queued = true
  handle(event: Shipped) {
    ran.push(`${event.constructor.name}:${event.orderId}:${event instanceof Shipped}`)
  }
}
class Audit {
  static queued = true
  handle(event: Event) {
    ran.push(`audit:${event instanceof Event}:${(event as Shipped).orderId}`)
  }
}

test('a queued listener is known from listen(), before any dispatch: a job queued by another process runs it; an event class it never saw is rebuilt as the one listened on', async (t) => {
  // The "web" app dispatches; its queue is faked to keep the jobs it would send to Redis.
  const listeners = (app: Application) => {
    app.service('events').listen(Shipped, Notify)
    app.service('events').listen('*', Audit)
  }
  const web = await logApp(t)
  const worker = await logApp(t)
  listeners(web)
  listeners(worker)
  const fake = web.service('queue').fake()
  await runWithApp(web, async () => {
    await Shipped.dispatch(1)
    await ShippedExpress.dispatch(2)
  })
  const payloads = fake.pushed.map((pushed) => serializeJob(pushed.job))
  t.deepEqual(
    payloads.map((p) => p.data.on),
    [null, '*', 'Shipped', '*'],
  )

  ran.length = 0
  for (const payload of payloads)
    await worker.service('queue').connections.connection('memory').push(payload, { queue: 'default', delay: 0, tries: 1, backoff: 0 })
  await worker.service('queue').flush()
  t.deepEqual(worker.service('queue').failed(), [])
  // ShippedExpress was never dispatched nor listened to in the worker: it arrives as a Shipped, with its data.
  t.deepEqual(ran.sort(), ['Shipped:1:true', 'Shipped:2:true', 'audit:true:1', 'audit:true:2'])

  // A listener the worker was never given: one line that says where to listen to it.
  await worker
    .service('queue')
    .connections.connection('memory')
    .push(serializeJob(new CallQueuedListener('Gone', 'Shipped', { orderId: 3 })), {
      queue: 'default',
      delay: 0,
      tries: 3,
      backoff: 0,
    })
  await worker.service('queue').flush()
  const errors = logLines(worker).filter((line) => line.level >= 50)
  t.is(errors.length, 1)
  t.regex(errors[0]!.msg, /^Unknown queued listener "Gone" for Shipped: .*config\/events\.ts.*boot\(\)/)

  // Another queued listener class of the same name would take the first one's jobs: refused.
  const impostor = class Notify {
    static queued = true
    handle() {}
  }
  t.throws(() => worker.service('events').listen(Shipped, impostor), {
    code: 'E_LISTENER_NAME_TAKEN',
    message: /Two queued listener classes are named "Notify"/,
  })
  t.notThrows(() => worker.service('events').listen(ShippedExpress, Notify), 'the same class on another event')
})
