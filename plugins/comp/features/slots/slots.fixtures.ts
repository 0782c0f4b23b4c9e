/**
 * Test components of slots and attributes: a shelf (the parent) passing a
 * default and a named slot and attributes to a card, a badge that places
 * its attributes itself, a tally nested in a slot (the shelf's child), a drawer showing its slot only once opened, and a
 * page view passing a slot with no parent
 * component. `/` shows the shelf; `/plain` the page view; `/direct` a card mounted from code.
 */
export const slotsFiles = {
  'app/components/shelf.ts': `import { Component } from 'kiln-framework/comp'
export default class Shelf extends Component {
  count = 0
  note = '<img src=x onerror="alert(1)">'
  increment() { this.count++ }
}
`,
  'resources/views/components/shelf.hbs': `<div>
  <span id="outer-count">{{count}}</span>
  <button id="outer-inc" wire:click="increment">outer +</button>
  {{#comp "card" title="Hello" class="mt-4" data-test="card" aria-label="A card" onclick="alert(1)" id='x"><script>' key="card"}}
    <p id="slot-count">Count: {{count}}</p>
    <button id="slot-inc" wire:click="increment">slot +</button>
    <i id="note">{{note}}</i>
    {{comp "tally" key="tally"}}
    {{#slot "footer"}}<em id="footer">Footer {{count}}</em>{{/slot}}
  {{/comp}}
  {{#comp "card" title="Bare" key="bare"}}{{/comp}}
  {{comp "badge" label="New" class="red" data-x="1" key="badge"}}
  {{#comp "drawer" key="drawer"}}<p class="drawer-count">Drawer {{count}}</p>{{/comp}}
</div>`,
  'app/components/tally.ts': `import { Component } from 'kiln-framework/comp'
export default class Tally extends Component {
  n = 0
  bump() { this.n++ }
}
`,
  'resources/views/components/tally.hbs': '<span class="tally"><b class="n">{{n}}</b><button class="bump" wire:click="bump">bump</button></span>',
  'app/components/drawer.ts': `import { Component } from 'kiln-framework/comp'
export default class Drawer extends Component {
  open = false
  toggle() { this.open = !this.open }
}
`,
  'resources/views/components/drawer.hbs':
    '<aside class="drawer"><button class="toggle" wire:click="toggle">toggle</button>{{#if open}}<div class="inside">{{slot}}</div>{{/if}}</aside>',
  'app/components/card.ts': `import { Component } from 'kiln-framework/comp'
export default class Card extends Component {
  title = ''
  clicks = 0
  click() { this.clicks++ }
}
`,
  'resources/views/components/card.hbs': `<section class="card" data-title="{{title}}">
  <h2>{{title}}</h2>
  <span class="clicks">{{clicks}}</span>
  <button class="click" wire:click="click">click</button>
  <div class="body">{{slot}}</div>
  {{#if (hasSlot "footer")}}<footer>{{slot "footer"}}</footer>{{else}}<footer class="no-footer">none</footer>{{/if}}
</section>`,
  'app/components/badge.ts': `import { Component } from 'kiln-framework/comp'
export default class Badge extends Component {
  label = ''
}
`,
  'resources/views/components/badge.hbs': '<span class="wrap"><b {{attributes class="badge"}}>{{label}}</b></span>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('shelf')",
  'resources/views/plain.hbs':
    '{{!< layouts/app}}\n{{#comp "card" title="Plain" class="wide"}}<p id="plain-slot">From the page {{who}}</p>{{/comp}}\n@comp(\'badge\', label=\'Old\', data-x=\'2\', aria-hidden=\'true\')',
  'resources/views/direct.hbs': '{{!< layouts/app}}\n{{card}}',
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
import { compHelper } from 'kiln-framework/comp'
export default defineRoutes((Route) => {
  Route.get('/', () => view('home', { title: 'Home' }))
  Route.get('/plain', () => view('plain', { title: 'Plain', who: '<Ann>' }))
  Route.get('/direct', async () => view('direct', { title: 'Direct', card: await compHelper('card', { title: 'Direct', id: '5', class: 'from-code' }) }))
})
`,
}
