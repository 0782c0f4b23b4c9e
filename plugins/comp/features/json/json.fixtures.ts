/** Test component of `@json()` actions: values back to JavaScript, validation kept apart, a value JSON cannot carry. */
export const jsonFiles: Record<string, string> = {
  'app/components/title-search.ts': `import { Component, json, validate } from 'kiln-framework/comp'
import { z } from 'zod'
export default class TitleSearch extends Component {
  titles = ['Kiln', 'Clay', 'Glaze']
  calls = 0
  result = ''
  @validate(z.string().min(3), { onUpdate: false }) name = ''
  @json() find(query: string) { this.calls++; return this.titles.filter((title) => title.toLowerCase().includes(String(query).toLowerCase())) }
  @json() async later() { return { when: new Date(0), count: this.calls } }
  @json() save() { this.validate(); return { saved: this.name } }
  @json() broken() { return { size: 10n } }
  @json() cyclic() { const a: Record<string, unknown> = {}; a.self = a; return a }
  @json() shaped() { return new Map([['a', 1]]) }
  @json() nothing() { this.calls++ }
  plain() { this.calls++; return 'not sent' }
  render() {
    return \`<div>
  <button id="find" x-on:click="$wire.find('a').then((titles) => $wire.result = titles.join(','))">find</button>
  <button id="save" x-on:click="$wire.save().catch((e) => $wire.result = e.status + ':' + Object.keys(e.errors).join(','))">save</button>
  <button id="broken" x-on:click="$wire.broken().catch((e) => $wire.result = 'rejected ' + e.status)">broken</button>
  <input id="name" wire:model="name">
  <b id="calls">{{calls}}</b> <i id="result" wire:text="result"></i> <u id="errors">{{#error "name"}}{{message}}{{/error}}</u>
</div>\`
  }
}
`,
}
