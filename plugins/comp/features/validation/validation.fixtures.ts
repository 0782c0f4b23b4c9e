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

/** The to-do form: static rules, `validate()` and `validateOnly()`, an error in its view, a computed count. */
export const todoFormFiles: Record<string, string> = {
  'app/components/todo-form.ts': `import { Component, on, computed, locked } from 'kiln-framework/comp'
import { z } from 'zod'
export default class TodoForm extends Component {
  static rules = z.object({ title: z.string().min(3, 'The title must be at least 3 characters.'), priority: z.number().int().min(1).max(5) })
  title = ''
  priority = 1
  items: string[] = []
  @locked() ownerId = 7
  saves = 0
  save() {
    const { title } = this.validate()
    this.items.push(title)
    this.saves++
    this.dispatch('todo-added', { title })
    this.reset('title')
  }
  @on('clear-all') clearAll() { this.items = [] }
  @computed() get remaining() { this.saves += 0; return this.items.length }
  checkTitle() { this.validateOnly('title') }
}
`,
  'resources/views/components/todo-form.hbs':
    '<form wire:submit="save"><input wire:model="title"><p class="error">{{error "title"}}</p><p class="remaining">{{remaining}} left</p><ul>{{#each items}}<li>{{this}}</li>{{/each}}</ul></form>',
}
