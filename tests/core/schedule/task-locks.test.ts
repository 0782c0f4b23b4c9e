import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp, generateAppKey, Schedule, type KilnError } from '../../../core/index.ts'
import { runDueTasks } from '../../../core/schedule/schedule-runner.ts'
import { assertOneServerStore, taskKeys } from '../../../core/schedule/task-locks.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const io = { info: () => {}, warn: () => {}, error: () => {}, table: () => {} }

const PRODUCTION = { APP_ENV: 'production', APP_KEY: generateAppKey(), APP_URL: 'https://app.example' }

async function appWithCache(t: { teardown(fn: () => unknown): void }, cache?: Record<string, unknown>, env: Record<string, string> = { APP_ENV: 'test' }) {
  const stores: Record<string, unknown> = { local: { driver: 'fs', base: 'storage/app' }, ...(cache ? { cache } : {}) }
  const app = await createApp({ root: tempApp(), env, config: { storage: { stores } } })
  t.teardown(() => app.close())
  return app
}

/** A schedule of one task, "Report", every minute on one server; `runs()` counts its runs. */
function oneServerReport() {
  let ran = 0
  const schedule = new Schedule()
  schedule
    .call(() => ran++)
    .everyMinute()
    .onOneServer()
    .description('Report')
  return { schedule, runs: () => ran }
}

test('in production, onOneServer on a cache store that is not shared: E_SCHEDULE_STORE_NOT_SHARED, from the check and from the runner, and the task never runs', async (t) => {
  for (const cache of [{ driver: 'memory' }, { driver: 'fs', base: 'storage/framework/cache' }, undefined]) {
    const app = await appWithCache(t, cache, PRODUCTION)
    const { schedule, runs } = oneServerReport()
    const error = t.throws<KilnError>(() => assertOneServerStore(app, schedule))
    t.is(error?.code, 'E_SCHEDULE_STORE_NOT_SHARED')
    t.regex(error!.message, /Set CACHE_STORE=redis/)
    t.regex(error!.message, cache ? new RegExp(`"${String(cache.driver)}" driver`) : /config\/storage\.ts has no "cache" store/)
    // Code that calls the runner directly gets the same refusal, as the task's failure.
    const [outcome] = await runDueTasks(app, schedule, new Date('2026-11-27T13:00:00Z'), io)
    t.is(outcome?.status, 'failed')
    t.is((outcome?.error as KilnError).code, 'E_SCHEDULE_STORE_NOT_SHARED')
    t.is(runs(), 0)
  }
})

test('outside production, onOneServer on a store that is not shared runs once per machine (lock files), with a warning naming CACHE_STORE=redis', async (t) => {
  const app = await appWithCache(t, { driver: 'memory' })
  const { schedule, runs } = oneServerReport()
  t.regex(assertOneServerStore(app, schedule) ?? '', /Set CACHE_STORE=redis.*Outside production these tasks run once per machine\./s)
  const at = new Date('2026-11-27T13:00:00Z')
  // Two runs on this machine in one minute, each with its own in-process set (two schedule:run): one runs it.
  const outcomes = [...(await runDueTasks(app, schedule, at, io)), ...(await runDueTasks(app, schedule, at, io))]
  t.deepEqual(
    outcomes.map((o) => o.status),
    ['ran', 'skipped'],
  )
  t.is(runs(), 1)
  t.true(readdirSync(join(app.root, 'storage/framework/schedule')).length > 0, 'the claim is a lock file of this machine')
})

test('withoutOverlapping without a shared cache store: lock files under storage/framework/schedule keep a second run out until the first ends', async (t) => {
  const app = await appWithCache(t, { driver: 'memory' })
  const schedule = new Schedule()
  let started = 0
  let finish = () => {}
  const gate = new Promise<void>((resolve) => (finish = resolve))
  schedule
    .call(async () => {
      started++
      await gate
    })
    .everyMinute()
    .withoutOverlapping()
    .description('Slow')
  const at = new Date('2026-11-27T13:00:00Z')
  // Each runDueTasks call with its own in-process set, as two schedule:run processes on this machine.
  const first = runDueTasks(app, schedule, at, io)
  while (started === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  const second = await runDueTasks(app, schedule, at, io)
  t.deepEqual(
    second.map((o) => [o.status, o.reason]),
    [['skipped', 'overlapping']],
  )
  t.true(readdirSync(join(app.root, 'storage/framework/schedule')).some((file) => file.endsWith('.lock')))
  finish()
  t.is((await first)[0]?.status, 'ran')
  t.is((await runDueTasks(app, schedule, at, io))[0]?.status, 'ran')
  t.is(started, 2)
})

test('task keys: alike tasks (two undescribed closures on one expression) get keys of their own, the same on every server', (t) => {
  const build = () => {
    const schedule = new Schedule()
    schedule.call(() => 1).everyMinute()
    schedule.call(() => 2).everyMinute()
    schedule.command('reports:send').everyMinute()
    return schedule
  }
  const one = [...taskKeys(build()).values()]
  const other = [...taskKeys(build()).values()]
  t.is(new Set(one).size, 3)
  t.deepEqual(one, other)
})

test('withoutOverlapping takes minutes above 0', (t) => {
  t.throws(() => new Schedule().call(() => 1).withoutOverlapping(0), { message: /above 0/ })
})
