import { mock } from 'node:test'
import test from 'ava'
import { TestClient } from '../../../../core/testing/index.ts'
import { testComponent } from '../../testing.ts'
import { compApp, next, page } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call } from '../../../../tests/plugins/comp/feature-app.ts'
import { cacheConfig, computedFiles } from './computed.fixtures.ts'

/** What a component's root element shows, without the element. */
function shown(html: string): string {
  return (/<div[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? html).trim()
}

test.serial('persist: the getter runs once for a component across its updates, again after forgetComputed(), and per instance', async (t) => {
  const { client } = await compApp(t, computedFiles, cacheConfig)
  const first = await page(client, '/page/persisted')
  t.is(shown(first.html), 'run 1 day 1 count 0')
  const one = await call(client, first.endpoint, first.snapshot, { calls: [{ method: 'bump' }] })
  t.is(shown(one.effects.html), 'run 1 day 1 count 1', 'the second request reads the kept value (a date stays a Date)')
  const two = await call(client, first.endpoint, next(first.snapshot, one), { calls: [{ method: 'bump' }] })
  t.is(shown(two.effects.html), 'run 1 day 1 count 2')
  const forgot = await call(client, first.endpoint, next(first.snapshot, two), { calls: [{ method: 'refresh' }] })
  t.is(shown(forgot.effects.html), 'run 2 day 2 count 2', 'forgotten: worked out again')
  const three = await call(client, first.endpoint, next(first.snapshot, forgot), { calls: [{ method: 'bump' }] })
  t.is(shown(three.effects.html), 'run 2 day 2 count 3', 'and the new value is the one kept')
  // Another instance (a second page load) has its own value.
  t.is(shown((await page(client, '/page/persisted')).html), 'run 3 day 3 count 0')
})

test.serial('persist: forgotten in a request that does not read it again, the value is gone from the store', async (t) => {
  const { app, client } = await compApp(t, computedFiles, cacheConfig)
  const first = await page(client, '/page/persisted')
  const cache = app.service('storage').store('cache')
  const key = `comp:persisted:${first.snapshot.fingerprint.id}:stamp`
  t.true(await cache.hasItem(key), 'kept per component instance')
  const forgot = await call(client, first.endpoint, first.snapshot, { calls: [{ method: 'refresh' }], renderless: true })
  t.is(forgot.effects.html, undefined)
  t.false(await cache.hasItem(key))
  const after = await call(client, first.endpoint, next(first.snapshot, forgot), { calls: [{ method: 'bump' }] })
  t.is(shown(after.effects.html), 'run 2 day 2 count 1')
})

test.serial('cache: one value for every instance and every user, forgotten by a component or by its key from outside', async (t) => {
  const { app, client } = await compApp(t, computedFiles, cacheConfig)
  const mine = await page(client, '/page/shared-total')
  t.is(shown(mine.html), 'total 1 visitors v2 count 0')
  const stranger = new TestClient(app)
  const theirs = await page(stranger, '/page/shared-total')
  t.is(shown(theirs.html), 'total 1 visitors v2 count 0', 'another user’s component reads the same values')
  const bumped = await call(stranger, theirs.endpoint, theirs.snapshot, { calls: [{ method: 'bump' }] })
  t.is(shown(bumped.effects.html), 'total 1 visitors v2 count 1')

  const cache = app.service('storage').store('cache')
  t.true(await cache.hasItem('comp:cached:shared-total:total'), 'the default key: component name and property')
  await cache.removeItem('stats.visitors')
  t.is(shown((await page(client, '/page/shared-total')).html), 'total 1 visitors v3 count 0', 'forgotten from outside by its key')

  const forgot = await call(client, mine.endpoint, mine.snapshot, { calls: [{ method: 'forgetAll' }] })
  t.is(shown(forgot.effects.html), 'total 4 visitors v5 count 0', 'forgetComputed() forgets both')
  t.is(shown((await page(stranger, '/page/shared-total')).html), 'total 4 visitors v5 count 0', 'for everyone')
})

test.serial('cache and persist: a value ends after its lifetime (default an hour), on a controlled clock', async (t) => {
  const { app, client } = await compApp(t, computedFiles, cacheConfig)
  mock.timers.enable({ apis: ['Date'], now: Date.now() })
  t.teardown(() => mock.timers.reset())
  const first = await page(client, '/page/shared-total')
  t.is(shown(first.html), 'total 1 visitors v2 count 0')
  const persisted = await page(client, '/page/persisted')
  t.is(shown(persisted.html), 'run 1 day 1 count 0')
  const left = await page(client, '/page/persisted')
  const cache = app.service('storage').store('cache')
  const leftKey = `comp:persisted:${left.snapshot.fingerprint.id}:stamp`
  t.true(await cache.hasItem(leftKey))

  mock.timers.tick(61_000)
  t.is(shown((await page(client, '/page/shared-total')).html), 'total 1 visitors v3 count 0', 'seconds: 60 has passed, the hour has not')
  mock.timers.tick(3540_000)
  t.is(shown((await page(client, '/page/shared-total')).html), 'total 4 visitors v5 count 0', 'an hour and a second: both worked out again')
  const later = await call(client, persisted.endpoint, persisted.snapshot, { calls: [{ method: 'bump' }] })
  t.is(shown(later.effects.html), 'run 3 day 3 count 1', 'a persisted value ends after the hour too')
  await app.service('http').deferred.settled()
  t.false(await cache.hasItem(leftKey), 'the value of a page left long ago is swept from the store (memory keeps what it is given)')
  t.true(await cache.hasItem(`comp:persisted:${persisted.snapshot.fingerprint.id}:stamp`))
})

test('options: a mistake is refused when the class is made', async (t) => {
  const { computed } = await import('./computed.ts')
  t.throws(() => computed({ persist: true, cache: true }), { message: /not both/ })
  t.throws(() => computed({ persist: true, key: 'k' }), { message: /a key is for cache/ })
  t.throws(() => computed({ cache: true, seconds: 0 }), { message: /positive number/ })
  t.throws(() => computed({ seconds: 10 }), { message: /seconds is for persist/ })
})

test('without a cache store, a persisted or cached computed property says which store to add', async (t) => {
  const { client } = await compApp(t, computedFiles, { logging: { level: 'silent' } }, { APP_DEBUG: 'true' })
  const error = await t.throwsAsync(testComponent(client, 'shared-total'))
  t.regex(error!.message, /SharedTotal has a computed property with persist or cache, .* "cache" store of config\/storage\.ts/)
})
