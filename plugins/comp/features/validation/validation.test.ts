import test from 'ava'
import { next, page } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
// The to-do form the kernel's tests drive too (the shared harness's canonical component).
import { todoFormFiles } from '../../../../tests/plugins/comp/kernel-files.ts'

test('validation: errors in effects.errors and the view; the calls stop; success clears them; validateOnly checks one field', async (t) => {
  const { client } = await featureApp(t, todoFormFiles)
  const { snapshot, endpoint } = await page(client, '/page/todo-form')
  const failed = await call(client, endpoint, snapshot, { updates: [['title', 'ab']], calls: [{ method: 'save' }] })
  t.deepEqual(failed.effects.errors, { title: ['The title must be at least 3 characters.'] })
  t.deepEqual(failed.serverMemo.errors, failed.effects.errors)
  t.regex(failed.effects.html, /<p class="error">The title must be at least 3 characters\.<\/p>/)
  t.deepEqual(failed.serverMemo.data.items, [], 'save() stopped at validate()')
  t.deepEqual(failed.effects.dispatches, [])
  const ok = await call(client, failed.effects.endpoint, next(snapshot, failed), { updates: [['title', 'Buy milk']], calls: [{ method: 'save' }] })
  t.deepEqual(ok.effects.errors, {})
  t.deepEqual(ok.serverMemo.data.items, ['Buy milk'])
  t.is(ok.serverMemo.data.title, '', 'reset() put the title back')
  t.deepEqual(ok.effects.dispatches, [{ name: 'todo-added', params: { title: 'Buy milk' } }])
  t.regex(ok.effects.html, /1 left/, 'the computed property renders')
  t.false('remaining' in ok.serverMemo.data, 'computed properties are not in the snapshot')
  const only = await call(client, ok.effects.endpoint, next(snapshot, ok), { updates: [['title', 'x']], calls: [{ method: 'checkTitle' }] })
  t.deepEqual(Object.keys(only.effects.errors), ['title'])
})
