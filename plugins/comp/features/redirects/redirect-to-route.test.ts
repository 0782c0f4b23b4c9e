import { AssertionError } from 'node:assert'
import test from 'ava'
import { testComponent } from '../../../../plugins/comp/index.ts'
import { compApp } from '../../../../tests/plugins/comp/comp-fixtures.ts'

// Redirects to named routes, written with route() as the docs do, one as a full address of the site.
const files = {
  'routes/web.ts': `import { defineRoutes } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/posts', () => 'posts').name('posts.index')
  Route.get('/posts/{post}', () => 'post').name('posts.show')
})
`,
  'app/components/editor.ts': `import { Component } from 'kiln-framework/comp'
import { route } from 'kiln-framework'
export default class Editor extends Component {
  toList() { this.redirect(route('posts.index')) }
  toPost(id: number) { this.redirect('http://localhost' + route('posts.show', { post: id })) }
}
`,
  'resources/views/components/editor.hbs': '<div></div>',
}

const failsWith = (message: RegExp) => ({ instanceOf: AssertionError, message })

test('assertRedirectToRoute: the named route with its parameters, as a path or an address of the app', async (t) => {
  const { app } = await compApp(t, files)
  const editor = await testComponent(app, 'editor')
    .call('toList')
    .assertRedirectToRoute('posts.index')
    .call('toPost', 7)
    .assertRedirectToRoute('posts.show', { post: 7 })
  t.throws(
    () => editor.assertRedirectToRoute('posts.show', { post: 8 }),
    failsWith(/^editor: Expected a redirect to the route 'posts\.show' \('\/posts\/8'\), but it went to 'http:\/\/localhost\/posts\/7'\./),
  )
  t.throws(() => editor.assertRedirectToRoute('posts.index'), failsWith(/Expected a redirect to the route 'posts\.index' \('\/posts'\), but it went to/))
  t.throws(() => editor.assertRedirectToRoute('post.show'), failsWith(/Expected a redirect to the route 'post\.show', but No route is named "post\.show"\./))
  await editor.call('$refresh')
  t.throws(() => editor.assertRedirectToRoute('posts.index'), failsWith(/but the last update did not redirect\./))
})
