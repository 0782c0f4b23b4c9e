/** Test component of JavaScript actions: a `@js()` action, `js()`, `redirect()` and `renderless()`. */
export const jsFiles: Record<string, string> = {
  'app/components/js-actions.ts': `import { Component, js } from 'kiln-framework/comp'
export default class JsActions extends Component {
  query = 'x'
  @js() clear() { return "$wire.query = ''" }
  notify() { this.js("console.log('saved')"); this.redirect('/done') }
  quiet() { this.renderless() }
  render() { return '<div>{{query}}</div>' }
}
`,
}
