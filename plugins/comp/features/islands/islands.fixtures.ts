/** Test components of islands: a dashboard whose stats are an island in their own view. */
export const islandsFiles: Record<string, string> = {
  'app/components/dashboard.ts': `import { Component } from 'kiln-framework/comp'
export default class Dashboard extends Component {
  static islandViews = { stats: 'components/dashboard-stats' }
  visits = 1
  title = 'Dashboard'
  refreshStats() { this.visits++ }
}
`,
  'resources/views/components/dashboard.hbs': '<section><h2>{{title}}</h2>{{{island "stats"}}}</section>',
  'resources/views/components/dashboard-stats.hbs': '<b>{{visits}} visits</b>',
}
