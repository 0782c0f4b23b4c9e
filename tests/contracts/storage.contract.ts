import type { TestFn } from 'ava'
import { createApp } from '../../core/index.ts'
import { tempApp } from '../fixtures/temp-app.ts'

/** The contract every storage driver passes (unstorage's testDriver pattern): one suite per driver. */
export function storageSuite(test: TestFn, store: Record<string, unknown>): void {
  const driver = String(store.driver)
  const open = async (t: { teardown(fn: () => unknown): void }) => {
    const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { storage: { default: 'main', stores: { main: store } } } })
    t.teardown(() => app.close())
    return app.service('storage').store()
  }

  test(`${driver}: set, get, has, remove, keys and clear`, async (t) => {
    const s = await open(t)
    await s.setItem('a:1', { n: 1 })
    await s.setItem('a:2', 'two')
    t.deepEqual(await s.getItem('a:1'), { n: 1 })
    t.is(await s.getItem('a:2'), 'two')
    t.true(await s.hasItem('a:1'))
    t.deepEqual((await s.getKeys('a')).sort(), ['a:1', 'a:2'])
    await s.removeItem('a:1')
    t.false(await s.hasItem('a:1'))
    t.is(await s.getItem('missing'), null)
    await s.clear()
    t.deepEqual(await s.getKeys(), [])
  })
}
