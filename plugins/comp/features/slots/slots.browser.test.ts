import test from 'ava'
import { slotsFiles } from './slots.fixtures.ts'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

// The slots feature's components; /c/shelf shows the parent with its children.
const { 'routes/web.ts': _routes, 'resources/views/home.hbs': _home, 'resources/views/plain.hbs': _plain, ...components } = slotsFiles

let env: BrowserApp
test.before(async () => {
  env = await browserApp(components, { env: { APP_DEBUG: 'true' } })
})
test.after.always(() => env?.close())

const card = 'section[data-test="card"]'

test('default and named slots show in the child; the child’s action keeps them; the parent’s update renders them again', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/shelf')
  t.is(await page.textContent(`${card} .body #slot-count`), 'Count: 0')
  t.is(await page.textContent(`${card} footer #footer`), 'Footer 0')
  t.is(await page.textContent('section[data-title="Bare"] footer'), 'none', 'no footer slot given: hasSlot is false')

  // The child's own action: it renders again, and its slots keep the parent's content.
  await page.click(`${card} button.click`)
  await textIs(page, `${card} .clicks`, '1')
  t.is(await page.textContent(`${card} #slot-count`), 'Count: 0')
  t.is(await page.textContent(`${card} #footer`), 'Footer 0')

  // The parent's update (a button outside the child): the slot content follows the parent's state.
  await page.click('#outer-inc')
  await textIs(page, '#outer-count', '1')
  await textIs(page, `${card} #slot-count`, 'Count: 1')
  await textIs(page, `${card} #footer`, 'Footer 1')
  t.is(await page.textContent(`${card} .clicks`), '1', 'the child kept its own state')

  // A button inside the slot calls the parent, not the child it sits in.
  await page.click(`${card} #slot-inc`)
  await textIs(page, '#outer-count', '2')
  await textIs(page, `${card} #slot-count`, 'Count: 2')
  t.is(await page.textContent(`${card} .clicks`), '1')

  // A component inside the slot (the parent's child) keeps its own state through both.
  await page.click(`${card} .tally button.bump`)
  await textIs(page, `${card} .tally .n`, '1')
  await page.click('#outer-inc')
  await textIs(page, `${card} #slot-count`, 'Count: 3')
  t.is(await page.textContent(`${card} .tally .n`), '1')

  // And the child again, after the parent changed the slots.
  await page.click(`${card} button.click`)
  await textIs(page, `${card} .clicks`, '2')
  t.is(await page.textContent(`${card} #slot-count`), 'Count: 3')
  t.is(await page.textContent(`${card} #footer`), 'Footer 3')
  t.is(await page.textContent(`${card} .tally .n`), '1')
  await page.click(`${card} .tally button.bump`)
  await textIs(page, `${card} .tally .n`, '2')
  t.is(await page.textContent('#outer-count'), '3', 'the nested component’s action went to it, not to the parent')
  t.deepEqual(errors, [])
})

test('a slot the child shows only later (a closed drawer) shows the parent’s content once the child opens', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/shelf')
  t.is(await page.$('aside .inside'), null)
  await page.click('aside button.toggle')
  await textIs(page, 'aside .inside .drawer-count', 'Drawer 0')
  await page.click('#outer-inc')
  await textIs(page, 'aside .drawer-count', 'Drawer 1')
  // Closed while the parent changes: opened again, it shows the parent's latest.
  await page.click('aside button.toggle')
  await page.waitForSelector('aside .inside', { state: 'detached' })
  await page.click('#outer-inc')
  await textIs(page, '#outer-count', '2')
  await page.click('aside button.toggle')
  await textIs(page, 'aside .inside .drawer-count', 'Drawer 2')
  t.deepEqual(errors, [])
})

test('attributes pass to the child’s root (class merged, a prop not repeated) and stay there through its updates', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/shelf')
  const root = () =>
    page.$eval(card, (el) => ({
      class: el.getAttribute('class'),
      label: el.getAttribute('aria-label'),
      title: el.hasAttribute('title'),
      onclick: el.hasAttribute('onclick'),
      id: el.id,
    }))
  t.deepEqual(await root(), { class: 'card mt-4', label: 'A card', title: false, onclick: false, id: 'x"><script>' })
  t.is(await page.$$eval('script', (scripts) => scripts.filter((s) => s.closest('section')).length), 0, 'no script came in through an attribute')
  await page.click(`${card} button.click`)
  await textIs(page, `${card} .clicks`, '1')
  await page.click('#outer-inc')
  await textIs(page, `${card} #slot-count`, 'Count: 1')
  t.deepEqual(await root(), { class: 'card mt-4', label: 'A card', title: false, onclick: false, id: 'x"><script>' })
  // The badge places its attributes itself: on its <b>, merged with its own class.
  t.is(await page.$eval('b.badge', (el) => `${el.className}|${el.getAttribute('data-x')}`), 'badge red|1')
  t.is(await page.$eval('span.wrap', (el) => el.getAttribute('class')), 'wrap')
  t.deepEqual(errors, [])
})
