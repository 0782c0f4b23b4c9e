import test from 'ava'
import { TestClient } from '../../../../core/testing/index.ts'
import { compApp, next, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call } from '../../../../tests/plugins/comp/feature-app.ts'
import { sessionFiles } from './session.fixtures.ts'

/** The text the search box renders. */
function shown(html: string): string {
  return /search=\[[^\]]*\] per=\[[^\]]*\] owner=\[[^\]]*\] plain=\[[^\]]*\]/.exec(html)?.[0] ?? `(no search box in ${html.slice(0, 300)})`
}

test('@session(): a value set by an update is there again on the next page load, for this session only', async (t) => {
  const { app, client } = await compApp(t, sessionFiles)
  const first = await page(client, '/page/search-box')
  t.is(shown(first.html), 'search=[] per=[10] owner=[nobody] plain=[mounted]')
  const changed = await call(client, first.endpoint, first.snapshot, {
    updates: [
      ['search', 'shoes'],
      ['perPage', '25'],
    ],
  })
  t.is(shown(changed.effects.html), 'search=[shoes] per=[25] owner=[nobody] plain=[mounted]')

  const again = await page(client, '/page/search-box')
  t.is(shown(again.html), 'search=[shoes] per=[25] owner=[nobody] plain=[mounted]', 'restored after mount(), in the property’s type')
  t.is(again.snapshot.serverMemo.data.perPage, 25)

  const stranger = new TestClient(app)
  t.is(shown((await page(stranger, '/page/search-box')).html), 'search=[] per=[10] owner=[nobody] plain=[mounted]', 'another session sees nothing')
})

test('@session(): an action that changes the value keeps the new one; an update that changes nothing writes nothing', async (t) => {
  const { client } = await compApp(t, sessionFiles)
  const first = await page(client, '/page/search-box')
  await call(client, first.endpoint, first.snapshot, { updates: [['search', 'boots']] })
  const second = await page(client, '/page/search-box')
  t.is(shown(second.html), 'search=[boots] per=[10] owner=[nobody] plain=[mounted]')
  // A tab still showing the first page updates another property: its old search does not overwrite the kept one.
  await call(client, first.endpoint, first.snapshot, { updates: [['plain', 'typed']] })
  t.is(shown((await page(client, '/page/search-box')).html), 'search=[boots] per=[10] owner=[nobody] plain=[mounted]')
  await call(client, second.endpoint, second.snapshot, { calls: [{ method: 'clear' }] })
  t.is(shown((await page(client, '/page/search-box')).html), 'search=[] per=[10] owner=[nobody] plain=[mounted]')
})

test('@session(): keys are per component, so two components with the same property never see each other’s value', async (t) => {
  const { client } = await compApp(t, sessionFiles)
  const first = await page(client, '/page/search-box')
  await call(client, first.endpoint, first.snapshot, { updates: [['search', 'mine']] })
  const res = await client.get('/both', { accept: 'text/html' })
  const html = await res.text()
  t.true(html.includes('search=[mine]'), html.slice(0, 500))
  t.true(html.includes('other=[]'), 'the other component keeps its own value')
})

test('@session({ key: (component) => ... }): one value per key made from the component’s state after mount()', async (t) => {
  const { client } = await compApp(t, sessionFiles)
  const one = await page(client, '/author/1')
  t.true(one.html.includes('author=[1] sort=[new]'), one.html.slice(0, 500))
  await call(client, one.endpoint, one.snapshot, { updates: [['sort', 'old']] })
  t.true((await page(client, '/author/1')).html.includes('author=[1] sort=[old]'))
  t.true((await page(client, '/author/2')).html.includes('author=[2] sort=[new]'), 'another author has its own value')
})

test('@session(): a kept value is still checked against the property’s type, and a locked property stays locked', async (t) => {
  const { client } = await compApp(t, sessionFiles)
  const first = await page(client, '/page/search-box')
  // App code puts text where the component keeps a number: the property keeps its own value, and the page renders.
  t.is((await client.json('POST', '/size/text')).status, 200)
  t.is(shown((await page(client, '/page/search-box')).html), 'search=[] per=[10] owner=[nobody] plain=[mounted]')
  t.is((await client.json('POST', '/size/40')).status, 200)
  t.is(shown((await page(client, '/page/search-box')).html), 'search=[] per=[40] owner=[nobody] plain=[mounted]')

  // A key function's text comes from the browser: naming another property, it still cannot reach that one's value.
  await call(client, first.endpoint, first.snapshot, {
    updates: [
      ['filter', 'owner'],
      ['picked', 'mallory'],
    ],
  })
  t.is(shown((await page(client, '/page/search-box')).html), 'search=[] per=[40] owner=[nobody] plain=[mounted]')
  const refused = await update(client, first.endpoint, first.snapshot, { updates: [['owner', 'mallory']] })
  t.is(refused.status, 403)
  t.is(shown((await page(client, '/page/search-box')).html), 'search=[] per=[40] owner=[nobody] plain=[mounted]', 'the refused update kept nothing')
  const claimed = await call(client, first.endpoint, first.snapshot, { calls: [{ method: 'claim', params: ['alice'] }] })
  t.true(claimed.effects.html.includes('owner=[alice]'))
  const after = await page(client, '/page/search-box')
  t.is(shown(after.html), 'search=[] per=[40] owner=[alice] plain=[mounted]', 'what the server set is kept')
  const onward = await call(client, after.endpoint, after.snapshot, { updates: [['search', 'x']] })
  t.is((await update(client, after.endpoint, next(after.snapshot, onward), { updates: [['owner', 'mallory']] })).status, 403)
})

test('@session(): a key that cannot be a name, or two properties under one key, is refused when the class is made', async (t) => {
  const { session, sessionProperties } = await import('./session-decorator.ts')
  t.throws(() => session({ key: '__proto__' }), { message: /session key/ })
  t.throws(() => session({ key: '' }), { message: /session key/ })
  class Twice {
    a = ''
    b = ''
  }
  session({ key: 'q' })(Twice.prototype, 'a')
  session({ key: 'q' })(Twice.prototype, 'b')
  t.throws(() => sessionProperties(Twice, 'twice'), { message: /two properties in the session as "q"/ })
})
