/** Test components of props between components: a list passing reactive props and a binding to its children, and a listener. */
export const propsFiles = {
  'app/components/todo-list.ts': `import { Component } from 'kiln-framework/comp'
export default class TodoList extends Component {
  items: string[] = ['Milk']
  draft = 'first'
  touched = 0
  add() { this.items.push(this.draft); this.dispatch('todo-added', { title: this.draft, constructor: 'y' }) }
  touch() { this.touched++ }
  clearDraft() { this.draft = '' }
}
`,
  'resources/views/components/todo-list.hbs': `<div>
  <span id="touched">{{touched}}</span><span id="draft">{{draft}}</span>
  <button id="add" wire:click="add">add</button><button id="touch" wire:click="touch">touch</button>
  <button id="clear-draft" wire:click="clearDraft">clear</button>
  @comp('todo-count', items=items, label='Todos', key='count')
  @comp('todo-input', wire:model.live="draft", key='input')
</div>`,
  'app/components/todo-count.ts': `import { Component, reactive } from 'kiln-framework/comp'
export default class TodoCount extends Component {
  @reactive() items: string[] = []
  label = ''
  renders = 0
  rendering() { this.renders++ }
  mutate() { this.items = [] }
  seen = ''
  updatingItems(next: string[]) { this.seen = this.items.length + '->' + next.length }
}
`,
  'resources/views/components/todo-count.hbs': `<p>{{label}}: <span id="count">{{items.length}}</span> <span id="renders">{{renders}}</span>
<button id="mutate" wire:click="mutate">mutate</button><button id="set-items" wire:click="$set('items', [])">set</button></p>`,
  'app/components/todo-input.ts': `import { Component, modelable } from 'kiln-framework/comp'
export default class TodoInput extends Component {
  @modelable() value = ''
}
`,
  'resources/views/components/todo-input.hbs': '<div><input id="inner" wire:model="value"><span id="inner-value">{{value}}</span></div>',
  'app/components/todo-stats.ts': `import { Component, on } from 'kiln-framework/comp'
export default class TodoStats extends Component {
  last = ''
  done = 'unset'
  whole = ''
  legacy = ''
  forbidden = 'none'
  @on('todo-added') count(title: string, done = 'default, (with) "text"') { this.last = title; this.done = String(done) }
  @on('todo-added') destructured({ title }: { title: string }) { this.whole = title }
  @on('todo-added') old(data: { title: string }) { this.legacy = data.title }
  @on('todo-added') guarded(constructor: unknown) { this.forbidden = typeof constructor === 'string' ? constructor : 'none' }
}
`,
  'resources/views/components/todo-stats.hbs': '<div><span id="last">{{last}}</span><span id="whole">{{whole}}</span><span id="legacy">{{legacy}}</span></div>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('todo-list')\n@comp('todo-stats')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}
