/** Test components of form objects: a post form (`@validate()`, `@typed`, a method) and the component holding it. */
export const formsFiles: Record<string, string> = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' }))
})
`,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
  'app/forms/post-form.ts': `import { Form, validate, typed } from 'kiln-framework/comp'
import { z } from 'zod'
export class PostForm extends Form {
  @validate(z.string().trim().min(3, 'The title needs 3 characters.')) title = ''
  @validate(z.string().max(20), { as: 'body text' }) body = ''
  @typed(Date) publishAt: Date | null = null
  tags: string[] = []
  _draftKey = 'internal'
  slug() { return this.title.toLowerCase().replaceAll(' ', '-') }
}
`,
  'app/components/create-post.ts': `import { Component } from 'kiln-framework/comp'
import { PostForm } from '../forms/post-form.ts'
export default class CreatePost extends Component {
  form = new PostForm()
  posts: string[] = []
  save() {
    const { title, body } = this.form.validate()
    this.posts.push(title + ':' + body + ':' + this.form.slug())
    this.form.reset()
  }
  checkTitle() { this.form.validate('title') }
  resetTitle() { this.form.reset('title') }
  fillIt() { this.form.fill({ title: 'Filled title', body: 'filled' }) }
  whole() { this.validate() }
  render() {
    return '<form wire:submit="save"><input wire:model="form.title" value="{{form.title}}"><p id="title-error">{{error "form.title"}}</p><ul>{{#each posts}}<li>{{this}}</li>{{/each}}</ul></form>'
  }
}
`,
}
