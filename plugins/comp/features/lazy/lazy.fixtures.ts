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

/**
 * Test components of lazy loading per use: a chart that is not lazy by class with a `placeholder(params)` method, and a
 * page that makes it lazy where it uses it, and loads the lazy card with the page (`lazy=false`).
 */
export const lazyPerUseFiles: Record<string, string> = {
  ...lazyFiles,
  'app/components/sales-chart.ts': `import { Component } from 'kiln-framework/comp'
export default class SalesChart extends Component {
  title = ''
  mounted = 'no'
  placeholder(params: Record<string, unknown>) { return '<div class="placeholder">Loading {{title}} ({{mounted}}, ' + Object.keys(params).join(',') + ')…</div>' }
  mount(params: Record<string, unknown>) { this.mounted = Object.keys(params).join(',') }
  render() { return '<article>{{title}} mounted with {{mounted}}</article>' }
}
`,
  'app/components/chart-page.ts': `import { Component } from 'kiln-framework/comp'
export default class ChartPage extends Component {
  render() { return "<section>@comp('sales-chart', title='Sales <b>', lazy=true)@comp('lazy-card', title='Now', lazy=false)</section>" }
}
`,
  'app/components/bad-option.ts': `import { Component } from 'kiln-framework/comp'
export default class BadOption extends Component {
  render() { return "<section>@comp('sales-chart', lazy='soon')</section>" }
}
`,
}
