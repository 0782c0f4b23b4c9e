import test from 'ava'
import { compApp, next, page, update } from './comp-fixtures.ts'

const files = {
  'app/components/panel.ts': `import { Component } from 'kiln-framework/comp'
export default class Panel extends Component {
  split = false
  toggle() { this.split = !this.split }
}
`,
  // A comment and blank lines before the root: what the update's quick look at the start tag must step over.
  'resources/views/components/panel.hbs':
    '<!-- the panel -->\n\n  <section class="panel"><p>{{#if split}}split{{else}}whole{{/if}}</p><button wire:click="toggle">t</button></section>{{#if split}}<aside>second</aside>{{/if}}',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('panel')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}

test('an update puts wire:id and wire:name on the root element, past leading comments and whitespace', async (t) => {
  const { client } = await compApp(t, files)
  const { html, snapshot, endpoint } = await page(client, '/')
  t.regex(html, /<!-- the panel -->\s*<section wire:id="[^"]+" wire:name="panel" wire:snapshot=/)
  const res = await update(client, endpoint, snapshot, { calls: [{ method: '$refresh' }] })
  t.is(res.status, 200)
  const json = await res.json()
  t.regex(json.effects.html, new RegExp(`^<!-- the panel -->\\s*<section wire:id="${snapshot.fingerprint.id}" wire:name="panel" class="panel">`))
  t.truthy(next(snapshot, json))
})

test('in debug mode an update that renders a second root element is an error naming the component', async (t) => {
  const { client } = await compApp(t, files, {}, { APP_DEBUG: 'true' })
  const { snapshot, endpoint } = await page(client, '/')
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'toggle' }] })
  t.is(res.status, 500)
  t.regex((await res.json()).stack.join('\n'), /The component "panel" must render exactly one root element; it rendered 2 root elements/)
})
