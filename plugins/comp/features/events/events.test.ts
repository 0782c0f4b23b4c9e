import test from 'ava'
import { next, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
// The to-do form the kernel's tests drive too (the shared harness's canonical component).
import { todoFormFiles } from '../../../../tests/plugins/comp/kernel-files.ts'

test('locked properties refuse updates with 403; listeners run on $event, and only for the events they declare', async (t) => {
  const { client } = await featureApp(t, todoFormFiles)
  const { snapshot, endpoint } = await page(client, '/page/todo-form')
  t.deepEqual(snapshot.serverMemo.listeners, ['clear-all'])
  const locked = await update(client, endpoint, snapshot, { updates: [['ownerId', 8]] })
  t.is(locked.status, 403)
  t.regex((await locked.json()).message, /locked/)
  const filled = await call(client, endpoint, snapshot, { updates: [['title', 'One more']], calls: [{ method: 'save' }] })
  const cleared = await call(client, filled.effects.endpoint, next(snapshot, filled), { calls: [{ method: '$event', params: ['clear-all', {}] }] })
  t.deepEqual(cleared.serverMemo.data.items, [])
  t.is((await update(client, cleared.effects.endpoint, next(snapshot, cleared), { calls: [{ method: '$event', params: ['other', {}] }] })).status, 403)
  t.is(
    (await update(client, cleared.effects.endpoint, next(snapshot, cleared), { calls: [{ method: 'clearAll' }] })).status,
    200,
    'a listener is also a public method',
  )
})
