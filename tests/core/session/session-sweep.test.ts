import test from 'ava'
import { createApp, sessionStore, sweepExpiredSessions, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { seedSessions } from './seed-sessions.ts'

async function sessionApp(t: { teardown(fn: () => unknown): void }, session: Record<string, unknown>): Promise<Application> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { session } })
  t.teardown(() => app.close())
  return app
}

for (const driver of ['fs', 'memory']) {
  test(`${driver}: one lottery sweep looks at session.sweep_limit records, whether the store holds 200 sessions or 4,000`, async (t) => {
    for (const size of [200, 4000]) {
      const app = await sessionApp(t, { driver, lottery: [0, 100], sweep_limit: 10 })
      await seedSessions(app, size / 2, size / 2)
      for (let run = 0; run < 3; run++) {
        const before = (await sessionStore(app).getKeys()).length
        const { examined, removed } = await sweepExpiredSessions(app)
        t.is(examined, 10, `${size} sessions, sweep ${run}: looked at ${examined} records`)
        t.true(removed <= examined)
        t.is((await sessionStore(app).getKeys()).length, before - removed, 'it says how many it removed')
      }
    }
  })

  test(`${driver}: one round of lottery sweeps (the store's size over session.sweep_limit, plus one) removes every expired session and no live one`, async (t) => {
    const app = await sessionApp(t, { driver, lottery: [0, 100], sweep_limit: 10 })
    const ids = await seedSessions(app, 150, 100)
    let removed = 0
    for (let run = 0; run < 250 / 10 + 1; run++) {
      const step = await sweepExpiredSessions(app)
      t.true(step.examined <= 10, `sweep ${run} looked at ${step.examined} records`)
      removed += step.removed
    }
    t.is(removed, 100)
    t.deepEqual((await sessionStore(app).getKeys()).sort(), ids.live.sort(), 'every expired session is gone, every live one stays')
  })
}
