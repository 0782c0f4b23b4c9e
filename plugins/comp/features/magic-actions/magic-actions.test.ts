import test from 'ava'
import { next, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
// The to-do form the kernel's tests drive too (the shared harness's canonical component).
import { todoFormFiles } from '../../../../tests/plugins/comp/kernel-files.ts'

test('$set and $toggle update through the same checks; $refresh re-renders', async (t) => {
  const { client } = await featureApp(t, todoFormFiles)
  const { snapshot, endpoint } = await page(client, '/page/todo-form')
  const set = await call(client, endpoint, snapshot, { calls: [{ method: '$set', params: ['priority', '3'] }] })
  t.is(set.serverMemo.data.priority, 3)
  t.is((await update(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: '$set', params: ['ownerId', 1] }] })).status, 403)
  t.is(
    (await update(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: '$toggle', params: ['title'] }] })).status,
    422,
    'a toggle on text is a type change',
  )
  const refreshed = await call(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: '$refresh' }] })
  t.truthy(refreshed.effects.html)
})
