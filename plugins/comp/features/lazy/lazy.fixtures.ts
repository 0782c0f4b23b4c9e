/** Test components of lazy loading: a lazy card with its placeholder view, and a deferred card. */
export const lazyFiles: Record<string, string> = {
  'app/components/lazy-card.ts': `import { Component } from 'kiln-framework/comp'
export default class LazyCard extends Component {
  static lazy = true
  static lazyPlaceholder = 'components/loading'
  title = 'unset'
  loads = 0
  mount(params: Record<string, unknown>) { this.title = String(params.title ?? 'none'); this.loads++ }
  render() { return '<article>{{title}} {{loads}}</article>' }
}
`,
  'app/components/deferred-card.ts': `import { Component } from 'kiln-framework/comp'
export default class DeferredCard extends Component {
  static defer = true
  ready = false
  mount() { this.ready = true }
  render() { return '<p>{{ready}}</p>' }
}
`,
  'resources/views/components/loading.hbs': '<div class="placeholder">Loading…</div>',
}
