/** Test component of the query string: two properties bound to the URL (`static queryString`) and one not. */
export const queryStringFiles: Record<string, string> = {
  'app/components/search.ts': `import { Component } from 'kiln-framework/comp'
export default class Search extends Component {
  static queryString = ['q', 'sort']
  q = ''
  sort = 'asc'
  limit = 10
  render() { return '<div>{{q}}/{{sort}}/{{limit}}</div>' }
}
`,
}
