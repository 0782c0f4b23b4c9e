import { pageFiles } from '../../../../tests/plugins/comp/comp-fixtures.ts'

/**
 * Test components of `@session()`: a search box with a renamed key and a locked property, another component with a
 * property of the same name, and routes that write the session as app code would (a value of the wrong type).
 */
export const sessionFiles: Record<string, string> = {
  'app/components/search-box.ts': `import { Component, locked, session } from 'kiln-framework/comp'
export default class SearchBox extends Component {
  @session() search = ''
  @session({ key: 'size' }) perPage = 10
  @locked() @session() owner = 'nobody'
  plain = ''
  filter = ''
  // A key made from text the browser sets.
  @session({ key: (box: SearchBox) => box.filter }) picked = ''
  mount() { this.plain = 'mounted' }
  clear() { this.search = '' }
  claim(name: string) { this.owner = name }
  render() { return '<div>search=[{{search}}] per=[{{perPage}}] owner=[{{owner}}] plain=[{{plain}}]</div>' }
}
`,
  'app/components/other-box.ts': `import { Component, session } from 'kiln-framework/comp'
export default class OtherBox extends Component {
  @session() search = ''
  render() { return '<div>other=[{{search}}]</div>' }
}
`,
  'app/components/author-posts.ts': `import { Component, session } from 'kiln-framework/comp'
export default class AuthorPosts extends Component {
  authorId = 0
  @session({ key: (posts: AuthorPosts) => 'sort-' + posts.authorId }) sort = 'new'
  render() { return '<div>author=[{{authorId}}] sort=[{{sort}}]</div>' }
}
`,
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' }))
  Route.get('/author/{id}', ({ params }) => view('author', { id: params.id, title: 'Author' }))
  Route.get('/both', () => view('both', { title: 'Both' }))
  Route.post('/size/{value}', ({ params, session }) => { session!.put('comp:search-box:size', params.value === 'text' ? 'lots' : Number(params.value)); return { ok: true } })
})
`,
  'resources/views/page.hbs': pageFiles['resources/views/page.hbs']!,
  'resources/views/author.hbs': '{{!< layouts/app}}\n{{{comp "author-posts" authorId=id}}}',
  'resources/views/both.hbs': '{{!< layouts/app}}\n{{{comp "search-box"}}}{{{comp "other-box"}}}',
}
