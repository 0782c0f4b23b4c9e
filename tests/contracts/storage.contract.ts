import test from 'ava'
import { createApp } from '../../core/index.ts'
import { tempApp } from '../fixtures/temp-app.ts'

/**
 * The contract every storage driver passes, in the manner of unstorage's `testDriver`: items set, read, listed by
 * prefix, removed and cleared through the app's `storage` service. `options` are the store's config beside `driver`.
 *
 * @example
 * ```ts
 * testStorage('fs', { base: 'storage/app' })
 * ```
 */
export function testStorage(driver: string, options: Record<string, unknown> = {}): void {
  const store = { driver, ...options }
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
