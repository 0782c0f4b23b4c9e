import test from 'ava'
import { page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { jsFiles } from './js.fixtures.ts'

test('$js actions live in the memo; js() and redirect() become effects; renderless() skips the HTML', async (t) => {
  const { client } = await featureApp(t, jsFiles)
  const { snapshot, endpoint } = await page(client, '/page/js-actions')
  t.deepEqual(snapshot.serverMemo.js, { clear: "$wire.query = ''" })
  t.is((await update(client, endpoint, snapshot, { calls: [{ method: 'clear' }] })).status, 403, 'a @js action is not a server method')
  const notified = await call(client, endpoint, snapshot, { calls: [{ method: 'notify' }] })
  t.deepEqual(notified.effects.js, ["console.log('saved')"])
  t.is(notified.effects.redirect, '/done')
  const quiet = await call(client, endpoint, snapshot, { calls: [{ method: 'quiet' }] })
  t.false('html' in quiet.effects)
  const flagged = await call(client, endpoint, snapshot, { calls: [{ method: '$refresh' }], renderless: true })
  t.false('html' in flagged.effects)
})
