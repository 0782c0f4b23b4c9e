import test from 'ava'
import type { TestClient } from '../../../../core/testing/index.ts'
import { compApp, endpointOf, next, snapshots, update, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { slotsFiles } from './slots.fixtures.ts'

type Answer = {
  effects: { html?: string; data: Record<string, unknown>; slots?: Record<string, Record<string, string>> }
  serverMemo: PageSnapshot['serverMemo']
}

/** The page's HTML, its endpoint, and each component's snapshot with the HTML of its root element. */
async function load(client: TestClient, path = '/') {
  const html = await (await client.get(path, { accept: 'text/html' })).text()
  const all = snapshots(html)
  const byTitle = (title: string) => all.find((s) => s.fingerprint.name === 'card' && s.serverMemo.data.title === title)!
  return { html, endpoint: endpointOf(html), all, shelf: all.find((s) => s.fingerprint.name === 'shelf')!, card: byTitle('Hello'), byTitle }
}

/** The start tag of the element with this `wire:id`. */
function rootTag(html: string, id: string): string {
  const at = html.indexOf(`wire:id="${id}"`)
  return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1)
}

test('a block tag passes its default and named slots; the child places them between comments naming the parent', async (t) => {
  const { client } = await compApp(t, slotsFiles)
  const { html, shelf, card, byTitle } = await load(client)
  const parent = shelf.fingerprint.id
  t.regex(html, new RegExp(`<div class="body"><!--\\[if SLOT:default:${parent}\\]><!\\[endif\\]-->\\s*<p id="slot-count">Count: 0</p>`))
  t.regex(
    html,
    new RegExp(`<footer><!--\\[if SLOT:footer:${parent}\\]><!\\[endif\\]--><em id="footer">Footer 0</em><!--\\[if ENDSLOT:footer\\]><!\\[endif\\]--></footer>`),
  )
  t.deepEqual(card.serverMemo.slots, { names: ['default', 'footer'], parent })
  // A tag with an empty block gives no slot: hasSlot is false, and {{slot}} prints nothing.
  t.is(byTitle('Bare').serverMemo.slots, undefined)
  // A slot the first render does not show (the drawer is closed) comes kept in a template at the end of the root.
  t.regex(
    html,
    /<button class="toggle" wire:click="toggle">toggle<\/button>(?:<!--\[if BLOCK\]><!\[endif\]--><!--\[if ENDBLOCK\]><!\[endif\]-->)?<template wire:slot="default"><p class="drawer-count">Drawer 0<\/p><\/template><\/aside>/,
  )
  t.regex(html, /<div class="body"><\/div>\s*(?:<!--\[if BLOCK\]><!\[endif\]-->)?<footer class="no-footer">none<\/footer>/)
  // The slot is the parent's render: its values are escaped as any.
  t.true(html.includes('<i id="note">&lt;img src&#x3D;x onerror&#x3D;&quot;alert(1)&quot;&gt;</i>') || html.includes('<i id="note">&lt;img src=x'))
  t.false(html.includes('<img src=x'))
})

test('attributes the child does not take as props go on its root, class merged, values escaped, handlers refused', async (t) => {
  const { client } = await compApp(t, slotsFiles)
  const { html, card } = await load(client)
  const tag = rootTag(html, card.fingerprint.id)
  t.regex(tag, /^<section wire:id="[^"]+" wire:name="card" wire:snapshot="[^"]*" class="card mt-4" data-title="Hello"/)
  t.regex(tag, / data-test="card"/)
  t.regex(tag, / aria-label="A card"/)
  t.regex(tag, / id="x&quot;&gt;&lt;script&gt;"/)
  t.notRegex(tag, /onclick/i, 'an event handler is never passed')
  t.notRegex(tag, / title=/, 'title is a prop of the child, not an attribute')
  t.deepEqual(card.serverMemo.attributes, { class: 'mt-4', 'data-test': 'card', 'aria-label': 'A card', id: 'x"><script>' })
  // A child that places them itself: on its element, merged with its own class; the root gets none.
  t.regex(html, /<span wire:id="[^"]+" wire:name="badge" wire:snapshot="[^"]*" class="wrap"><b class="badge red" data-x="1">New<\/b><\/span>/)
})

test("the child's own update keeps its attributes and sends its slots as empty markers (the browser keeps their content)", async (t) => {
  const { client } = await compApp(t, slotsFiles)
  const { endpoint, shelf, card } = await load(client)
  const res = await update(client, endpoint, card, { calls: [{ method: 'click' }] })
  t.is(res.status, 200)
  const answer = (await res.json()) as Answer
  const html = answer.effects.html!
  t.regex(html, /<span class="clicks">1<\/span>/)
  const tag = html.slice(0, html.indexOf('>') + 1)
  t.regex(tag, /^<section wire:id="[^"]+" wire:name="card" class="card mt-4" data-title="Hello" /)
  for (const attribute of [' data-test="card"', ' aria-label="A card"', ' id="x&quot;&gt;&lt;script&gt;"']) t.true(tag.includes(attribute), attribute)
  const parent = shelf.fingerprint.id
  t.true(html.includes(`<div class="body"><!--[if SLOT:default:${parent}]><![endif]--><!--[if ENDSLOT:default]><![endif]--></div>`))
  t.true(
    html.includes(`<footer><!--[if SLOT:footer:${parent}]><![endif]--><!--[if ENDSLOT:footer]><![endif]--></footer>`),
    'hasSlot still answers from the snapshot',
  )
  t.deepEqual(answer.serverMemo.slots, card.serverMemo.slots)
  t.deepEqual(answer.serverMemo.attributes, card.serverMemo.attributes)

  // And again, from the new snapshot.
  const again = (await (await update(client, endpoint, next(card, answer), { calls: [{ method: 'click' }] })).json()) as Answer
  t.regex(again.effects.html!, /class="card mt-4"/)
})

test("the parent's update renders the slots again and sends them for the child it rendered before", async (t) => {
  const { client } = await compApp(t, slotsFiles)
  const { endpoint, shelf, card, byTitle, all } = await load(client)
  const res = await update(client, endpoint, shelf, { calls: [{ method: 'increment' }] })
  t.is(res.status, 200)
  const answer = (await res.json()) as Answer
  // The child keeps its own HTML: the parent's holds its empty element.
  t.true(answer.effects.html!.includes(`<section wire:id="${card.fingerprint.id}"></section>`))
  const slots = answer.effects.slots!
  const drawer = all.find((s) => s.fingerprint.name === 'drawer')!
  t.deepEqual(Object.keys(slots).sort(), [card.fingerprint.id, drawer.fingerprint.id].sort(), 'only the children that were given slots')
  t.is(slots[drawer.fingerprint.id]!.default, '<p class="drawer-count">Drawer 1</p>', 'a slot the child does not show now is sent too')
  t.regex(slots[card.fingerprint.id]!.default!, /<p id="slot-count">Count: 1<\/p>/)
  t.is(slots[card.fingerprint.id]!.footer, '<em id="footer">Footer 1</em>')
  // A component in a slot is the parent's child: rendered once, then an empty element in the slot's new HTML.
  const tally = all.find((s) => s.fingerprint.name === 'tally')!
  t.true(slots[card.fingerprint.id]!.default!.includes(`<span wire:id="${tally.fingerprint.id}"></span>`))
  t.deepEqual(answer.serverMemo.children?.tally, shelf.serverMemo.children?.tally)
  t.is(byTitle('Bare').serverMemo.slots, undefined)
})

test('a page view (no parent component) passes slots and attributes too', async (t) => {
  const { client } = await compApp(t, slotsFiles)
  const { html, byTitle } = await load(client, '/plain')
  const card = byTitle('Plain')
  t.regex(html, /<!--\[if SLOT:default:\]><!\[endif\]--><p id="plain-slot">From the page &lt;Ann&gt;<\/p>/)
  t.deepEqual(card.serverMemo.slots, { names: ['default'] })
  t.regex(rootTag(html, card.fingerprint.id), /class="card wide"/)
  // The @comp directive takes attribute names with a dash too.
  t.regex(html, /<b class="badge" (?:data-x="2" aria-hidden="true"|aria-hidden="true" data-x="2")>Old<\/b>/)
})

test('a component mounted from code (compHelper, a route) takes its parameters, never attributes', async (t) => {
  const { client } = await compApp(t, slotsFiles)
  const { html, byTitle } = await load(client, '/direct')
  const card = byTitle('Direct')
  t.is(card.serverMemo.attributes, undefined)
  t.regex(rootTag(html, card.fingerprint.id), /" class="card" data-title="Direct">$/)
})

test('{{#slot}} outside a {{#comp}} block, and a slot name outside letters, digits, _ and -, fail, saying what is wrong', async (t) => {
  const { client } = await compApp(
    t,
    {
      ...slotsFiles,
      'resources/views/components/stray.hbs': '<div>{{#slot "x"}}y{{/slot}}</div>',
      'app/components/stray.ts': "import { Component } from 'kiln-framework/comp'\nexport default class Stray extends Component {}\n",
      'resources/views/components/odd.hbs': '<div>{{#comp "card" title="t"}}{{#slot "a b"}}y{{/slot}}{{/comp}}</div>',
      'app/components/odd.ts': "import { Component } from 'kiln-framework/comp'\nexport default class Odd extends Component {}\n",
      'resources/views/stray.hbs': "{{!< layouts/app}}\n@comp('stray')",
      'resources/views/odd.hbs': "{{!< layouts/app}}\n@comp('odd')",
      'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/stray', () => view('stray', { title: 'S' }))
  Route.get('/odd', () => view('odd', { title: 'O' }))
})
`,
    },
    { app: { debug: true } },
  )
  const stray = await client.get('/stray', { accept: 'application/json' })
  t.regex(await stray.text(), /\{\{#slot\}\} names a slot of a component: put it inside/)
  const odd = await client.get('/odd', { accept: 'application/json' })
  t.regex(await odd.text(), /A slot name is a word of letters, digits/)
})
