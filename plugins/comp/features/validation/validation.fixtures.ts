/** Test components of property validation and form objects (the validation and forms features' tests). */
export const validationFiles: Record<string, string> = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' }))
})
`,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
  'app/components/signup.ts': `import { Component, validate } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Signup extends Component {
  static rules = z.object({ terms: z.literal(true, 'Accept the terms.') })
  @validate(z.string().min(3)) name = ''
  @validate(z.string().email(), { as: 'email address' }) email = ''
  @validate(z.string().min(8), { message: { too_small: 'The :attribute needs 8 characters or more.' }, as: 'secret' }) password = ''
  @validate(z.string().max(5), { onUpdate: false, message: 'Keep :attribute short.' }) nickname = ''
  @validate(z.array(z.string().min(2)).max(3)) tags: string[] = []
  terms = false
  saved = ''
  calls = 0
  touch() { this.calls++ }
  save() {
    const { name, email } = this.validate()
    this.saved = name + ' <' + email + '>'
  }
  checkName() { this.validateOnly('name') }
  render() { return '<div><p id="name-error">{{error "name"}}</p><p id="saved">{{saved}}</p></div>' }
}
`,
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
