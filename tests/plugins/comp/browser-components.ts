/** Components for the kernel's browser tests: each is served at /c/<name>. A feature's are in its own browser tests. */
const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

/** The counter most browser tests click: arguments, renderless calls, $wire, loading states, a long page. */
export const counter: Record<string, string> = component(
  'counter',
  `import { Component } from 'kiln-framework/comp'
export default class Counter extends Component {
count = 0
last = ''
renders = 0
rendering() { this.renders++ }
increment() { this.count++ }
add(amount: number, label: string) { this.count += amount; this.last = label }
quiet() { this.count += 100 }
async slow() { await new Promise((r) => setTimeout(r, 400)); this.count += 10 }
}
`,
  `<div>
<span id="count">{{count}}</span> <span id="last">{{last}}</span> <span id="renders">{{renders}}</span>
<b id="live" wire:text="count"></b>
<button id="inc" wire:click="increment">+</button>
<button id="add" wire:click="add(5, 'five')">+5</button>
<button id="quiet" wire:click.renderless="quiet">quiet</button>
<button id="slow" wire:click="slow">slow</button>
<button id="confirm" wire:click="increment" wire:confirm="Really?">confirm</button>
<button id="wire-call" x-on:click="$wire.add(2, 'two')">$wire</button>
<button id="wire-set" x-on:click="$wire.$set('count', 42)">$set</button>
<button id="wire-refresh" x-on:click="$wire.$refresh()">$refresh</button>
<span id="loading" wire:loading>working</span>
<span id="loading-slow" wire:loading wire:target="slow">slow working</span>
<span id="loading-class" wire:loading.class="busy" class="idle">class</span>
<div style="height: 3000px"></div>
<button id="scroll" wire:click.preserve-scroll="increment">bottom</button>
</div>`,
)

export const files: Record<string, string> = {
  ...counter,
  ...component(
    'form',
    `import { Component } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Form extends Component {
  static rules = z.object({ title: z.string().min(3, 'Too short.'), email: z.string().email('Bad email.').or(z.literal('')) })
  title = ''
  email = ''
  notes = ''
  lazy = ''
  slowField = ''
  agree = false
  colour = 'red'
  saved = ''
  syncs = 0
  updated() { this.syncs++ }
  save() { this.validate(); this.saved = this.title }
}
`,
    `<form wire:submit="save">
  <input id="title" wire:model.change="title">
  <input id="live" wire:model.live="notes">
  <input id="blur" wire:model.blur="lazy">
  <input id="debounce" wire:model.live.debounce.300ms="slowField">
  <input id="email" wire:model.live.blur="email">
  <input id="agree" type="checkbox" wire:model.live="agree">
  <select id="colour" wire:model.live="colour"><option>red</option><option>blue</option></select>
  <p id="title-error">{{error "title"}}</p>
  <p id="alpine-error" x-text="$errors.first('title')"></p>
  <span id="dirty" wire:dirty wire:target="title">unsaved</span>
  <span id="server-notes">{{notes}}</span> <span id="server-lazy">{{lazy}}</span> <span id="server-slow">{{slowField}}</span>
  <span id="server-agree">{{agree}}</span> <span id="server-colour">{{colour}}</span> <span id="server-email">{{email}}</span>
  <span id="saved">{{saved}}</span> <span id="syncs">{{syncs}}</span>
  <button id="submit" type="submit">Save</button>
</form>`,
  ),
  ...component(
    'display',
    `import { Component, js } from 'kiln-framework/comp'
export default class Display extends Component {
  open = false
  tone = 'calm'
  label = 'hello'
  toggle() { this.open = !this.open }
  @js() shout() { return "$wire.label = 'HELLO'" }
  @js() whisper() { return "$wire.label = 'psst'" }
  announce() { this.js("document.body.dataset.announced = 'yes'") }
}
`,
    `<div>
  <p id="shown" wire:show="open">visible</p>
  <p id="text" wire:text="label"></p>
  <p id="bound" wire:bind:class="tone" wire:bind:title="label">bound</p>
  <button id="toggle" wire:click="toggle">toggle</button>
  <button id="local" x-on:click="$wire.open = !$wire.open">local</button>
  <button id="shout" x-on:click="$wire.$js.shout()">shout</button>
  <button id="whisper" wire:click="$js.whisper">whisper</button>
  <button id="announce" wire:click="announce">announce</button>
  <div x-data="{ mirrored: $wire.$entangle('label', true) }"><input id="entangled" x-model="mirrored"></div>
  <span id="offline" wire:offline>offline</span> <span id="online" wire:online>online</span>
  <input id="ref-target" wire:ref="box">
</div>`,
  ),
  ...component(
    'list',
    `import { Component } from 'kiln-framework/comp'
export default class List extends Component {
  items = ['a', 'b', 'c']
  reversed = false
  order: string[] = []
  reverse() { this.items = [...this.items].reverse() }
  reorder(ids: string[]) { this.order = ids; this.items = ids }
}
`,
    `<div>
  <ul id="keyed">{{#each items}}<li wire:key="{{this}}" x-data="{ mark: '{{this}}-' + Math.random() }" x-bind:data-mark="mark">{{this}}</li>{{/each}}</ul>
  <div id="ignored" wire:ignore><span id="ignored-text">original</span></div>
  <ul id="sortable" wire:sort.order="reorder">{{#each items}}<li wire:sort:item="{{this}}" id="sort-{{this}}" style="padding: 10px; border: 1px solid #888">{{this}}</li>{{/each}}</ul>
  <p id="order">{{#each order}}{{this}}{{/each}}</p>
  <button id="reverse" wire:click="reverse">reverse</button>
</div>`,
  ),
  ...component(
    'poller',
    `import { Component } from 'kiln-framework/comp'
export default class Poller extends Component {
  ticks = 0
  inits = 0
  seen = 0
  tick() { this.ticks++ }
  start() { this.inits++ }
  saw() { this.seen++ }
}
`,
    `<div>
  <div wire:poll.300ms="tick"><span id="ticks">{{ticks}}</span></div>
  <div wire:init="start"><span id="inits">{{inits}}</span></div>
  <div style="height: 3000px"></div>
  <div id="watched" wire:intersect.once="saw"><span id="seen">{{seen}}</span></div>
</div>`,
  ),
  ...component(
    'parent',
    `import { Component } from 'kiln-framework/comp'
export default class Parent extends Component {
  label = 'p1'
  relabel() { this.label = this.label + '!' }
}
`,
    `<div><h1 id="parent-label">{{label}}</h1><button id="relabel" wire:click="relabel">relabel</button>{{{comp "counter" key="child"}}}</div>`,
  ),
  ...component(
    'big',
    `import { Component } from 'kiln-framework/comp'
export default class Big extends Component {
  blob = 'x'.repeat(300_000)
  rounds = 0
  again() { this.rounds++; this.blob = this.blob.slice(1) + 'y' }
}
`,
    `<div><span id="rounds">{{rounds}}</span><span id="length">{{blob.length}}</span><button id="again" wire:click="again">again</button></div>`,
  ),
}
