/** Test components of property validation: a sign-up form checked by `@validate()` and by static rules. */
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
}
