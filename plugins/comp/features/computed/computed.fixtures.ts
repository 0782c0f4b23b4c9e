import { pageFiles } from '../../../../tests/plugins/comp/comp-fixtures.ts'

/**
 * Test components of persisted and cached computed properties. Each getter counts its runs in its module (one per
 * app), and shows the count, so a page tells whether the getter ran again.
 */
export const computedFiles: Record<string, string> = {
  'app/components/persisted.ts': `import { Component, computed } from 'kiln-framework/comp'
let runs = 0
export default class Persisted extends Component {
  count = 0
  @computed({ persist: true }) get stamp() { runs++; return { run: runs, at: new Date(Date.UTC(2026, 0, runs)) } }
  // A date comes back as a Date: read with its methods, it would fail as text.
  @computed() get day() { return this.stamp.at.getUTCDate() }
  bump() { this.count++ }
  refresh() { this.forgetComputed('stamp') }
  render() { return '<div>run {{stamp.run}} day {{day}} count {{count}}</div>' }
}
`,
  'app/components/shared-total.ts': `import { Component, computed } from 'kiln-framework/comp'
let runs = 0
export default class SharedTotal extends Component {
  count = 0
  @computed({ cache: true }) get total() { runs++; return runs }
  @computed({ cache: true, key: 'stats.visitors', seconds: 60 }) get visitors() { runs++; return 'v' + runs }
  bump() { this.count++ }
  forgetAll() { this.forgetComputed() }
  render() { return '<div>total {{total}} visitors {{visitors}} count {{count}}</div>' }
}
`,
  'routes/web.ts': pageFiles['routes/web.ts']!,
  'resources/views/page.hbs': pageFiles['resources/views/page.hbs']!,
}

/** The config of an app with a cache store (config/storage.ts `stores.cache`), where these values are kept. */
export const cacheConfig = { storage: { default: 'memory', stores: { memory: { driver: 'memory' }, cache: { driver: 'memory' } } } }
