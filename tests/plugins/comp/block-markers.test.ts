import test from 'ava'
import { compApp, page, snapshots, update } from './comp-fixtures.ts'

const S = '<!--[if BLOCK]><![endif]-->'
const E = '<!--[if ENDBLOCK]><![endif]-->'

const files = {
  'app/components/shelf.ts': `import { Component } from 'kiln-framework/comp'
export default class Shelf extends Component {
  open = false
  books = ['Dune']
  toggle() { this.open = !this.open }
}
`,
  // Blocks in element content, in an attribute, in a script; the island is one element either way.
  'resources/views/components/shelf.hbs': `<section class="{{#if open}}open{{/if}}">
{{#if open}}<p>Open</p>{{else}}<p>Shut</p>{{/if}}
<ul>{{#each books}}<li>{{this}}</li>{{/each}}</ul>
<script>let open = {{#if open}}true{{else}}false{{/if}}</script>
{{#island "count"}}{{#if open}}<b>{{books.length}}</b>{{/if}}<button wire:click="toggle">t</button>{{/island}}
@comp('lamp')
</section>`,
  'app/components/lamp.ts': `import { Component } from 'kiln-framework/comp'
export default class Lamp extends Component {
  on = false
  flip() { this.on = !this.on }
}
`,
  // A view that is one block around its root: the markers would be outside the root, in the parent's HTML.
  'resources/views/components/lamp.hbs': '{{#if on}}<b class="lamp">on</b>{{else}}<i class="lamp">off</i>{{/if}}',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('shelf')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}

test('component views get markers around blocks in element content only; page views and layouts get none', async (t) => {
  const { client } = await compApp(t, files)
  const { html, snapshot, endpoint } = await page(client, '/')
  t.regex(html, /<section wire:id="[^"]+" wire:name="shelf" wire:snapshot="[^"]+" class="">/, 'none in an attribute')
  t.true(html.includes(`\n${S}<p>Shut</p>${E}\n<ul>${S}<li>Dune</li>${E}</ul>\n<script>let open = false</script>\n`), html)
  t.true(html.includes(`<div wire:island="count"><button wire:click="toggle">t</button></div>`.replace('<button', `${S}${E}<button`)), 'none around the island')
  t.is(html.split('<!--[if BLOCK]').length - 1, 3, 'the if, the each and the one in the island; nothing in the layout')

  const answer = await (await update(client, endpoint, snapshot, { calls: [{ method: 'toggle' }], island: 'count' })).json()
  t.deepEqual(answer.effects.islands, { count: `${S}<b>1</b>${E}<button wire:click="toggle">t</button>` }, 'an island alone: as inside its component')
})

test('a view that is one block around its root element has no markers outside the root, on a page or in an update', async (t) => {
  const { client } = await compApp(t, files)
  const { html, endpoint } = await page(client, '/')
  t.regex(html, /\n<i wire:id="[^"]+" wire:name="lamp" wire:snapshot="[^"]+" class="lamp">off<\/i>\n<\/section>/)
  const lamp = snapshots(html).find((snapshot) => snapshot.fingerprint.name === 'lamp')!
  const answer = await (await update(client, endpoint, lamp, { calls: [{ method: 'flip' }] })).json()
  t.regex(answer.effects.html, /^<b wire:id="[^"]+" wire:name="lamp" class="lamp">on<\/b>$/)
})
