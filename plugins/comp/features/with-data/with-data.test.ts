import test from 'ava'
import { compApp, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { testComponent } from '../../index.ts'

const files = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => { Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' })) })
`,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{comp name}}',
  // with() (sync) feeds the default view; a computed property is read there too; each has the loop data.
  'app/components/todos.ts': `import { Component, computed } from 'kiln-framework/comp'
export default class Todos extends Component {
  todos = [{ title: 'Milk', done: false }, { title: 'Eggs', done: true }, { title: 'Bread', done: false }]
  label = 'from the property'
  toggle(index: number) { this.todos[index]!.done = !this.todos[index]!.done }
  add(title: string) { this.todos.push({ title, done: false }) }
  @computed() get total() { return this.todos.length }
  with() {
    return { remaining: this.todos.filter((todo) => !todo.done).length, label: 'from with()' }
  }
}
`,
  'resources/views/components/todos.hbs': [
    '<div><p class="summary">{{remaining}} of {{total}} left, {{label}}</p><ul>',
    '{{#each todos}}<li class="{{class "todo" done=done odd=@odd}}">{{@iteration}}/{{@count}} {{title}}{{#if @last}} (last){{/if}}</li>{{/each}}',
    '</ul></div>',
  ].join(''),
  // An async with() feeding a static template.
  'app/components/greeting.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Greeting extends Component {
  name = 'Ada'
  rename(name: string) { this.name = name }
  async with() {
    await new Promise((resolve) => setImmediate(resolve))
    return { shout: this.name.toUpperCase() }
  }
  static template = html\`<p>Hello {{shout}}</p>\`
}
`,
  'app/components/broken-with.ts': `import { Component, html } from 'kiln-framework/comp'
export default class BrokenWith extends Component {
  with() { return ['not', 'an', 'object'] as never }
  static template = html\`<p>never</p>\`
}
`,
  // Error blocks from the component's errors, through real updates.
  'app/components/signup.ts': `import { Component, html } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Signup extends Component {
  static rules = z.object({ title: z.string().min(3, 'The title must be at least 3 characters.') })
  title = ''
  saved = false
  save() { this.validate(); this.saved = true }
  claim() { this.errors = { title: [\`"\${this.title}" is taken.\`] } }
  static template = html\`<form>
<input wire:model="title" class="{{class "input" invalid=(error "title")}}">
{{#error "title"}}<p class="error">{{message}}</p>{{else}}<p class="hint">{{#if saved}}Saved{{else}}3 letters or more{{/if}}</p>{{/error}}
</form>\`
}
`,
}

test('with() adds its data to the default view on mount and on every update; it wins over a property; computed properties are read in the view', async (t) => {
  const { client } = await compApp(t, files)
  const todos = await testComponent(client, 'todos')
  t.regex(todos.html, /<p class="summary">2 of 3 left, from with\(\)<\/p>/)
  t.regex(
    todos.html,
    /<!--\[if BLOCK\]><!\[endif\]--><li class="todo odd">1\/3 Milk<!--\[if BLOCK\]><!\[endif\]--><!--\[if ENDBLOCK\]><!\[endif\]--><\/li><li class="todo done">2\/3 Eggs<!--\[if BLOCK\]><!\[endif\]--><!--\[if ENDBLOCK\]><!\[endif\]--><\/li><li class="todo odd">3\/3 Bread<!--\[if BLOCK\]><!\[endif\]--> \(last\)<!--\[if ENDBLOCK\]><!\[endif\]--><\/li><!--\[if ENDBLOCK\]><!\[endif\]-->/,
  )
  await todos.call('toggle', 0)
  t.regex(todos.html, /1 of 3 left/)
  await todos.call('add', 'Tea')
  t.regex(todos.html, /2 of 4 left/)
  t.regex(
    todos.html,
    /<li class="todo done odd">1\/4 Milk<!--\[if BLOCK\]><!\[endif\]--><!--\[if ENDBLOCK\]><!\[endif\]--><\/li>.*<li class="todo">4\/4 Tea<!--\[if BLOCK\]><!\[endif\]--> \(last\)<!--\[if ENDBLOCK\]><!\[endif\]--><\/li>/s,
  )
  t.is(todos.get('label'), 'from the property', 'with() changes what the view sees, not the state')
  t.deepEqual(Object.keys(todos.data).sort(), ['label', 'todos'], 'with() data is not in the snapshot')
})

test('an async with() feeds a static template, through a page and the update endpoint', async (t) => {
  const { client } = await compApp(t, files)
  const { html, snapshot, endpoint } = await page(client, '/page/greeting')
  t.regex(html, /<p wire:id="[^"]+" wire:name="greeting" wire:snapshot="[^"]+">Hello ADA<\/p>/)
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'rename', params: ['<grace>'] }] })
  t.is(res.status, 200)
  t.regex((await res.json()).effects.html, /Hello &lt;GRACE&gt;/)
})

test('the browser cannot call with(); a with() that returns no object is a clear error', async (t) => {
  const { app, client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/greeting')
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'with' }] })
  t.true(res.status >= 400 && res.status < 500, `refused with ${res.status}`)
  await t.throwsAsync(app.service('comp').mount('broken-with', {}, {}), { code: 'E_COMP_WITH', message: /BrokenWith\.with\(\) must return an object/ })
})

test('error blocks in a component view: shown from its errors through real updates, message escaped, {{else}} otherwise', async (t) => {
  const { client } = await compApp(t, files)
  const signup = await testComponent(client, 'signup')
  t.regex(
    signup.html,
    /<input wire:model="title" class="input">\n<!--\[if BLOCK\]><!\[endif\]--><p class="hint"><!--\[if BLOCK\]><!\[endif\]-->3 letters or more<!--\[if ENDBLOCK\]><!\[endif\]--><\/p><!--\[if ENDBLOCK\]><!\[endif\]-->/,
  )
  await signup.set('title', 'ab')
  await signup.call('save')
  t.regex(
    signup.html,
    /class="input invalid">\n<!--\[if BLOCK\]><!\[endif\]--><p class="error">The title must be at least 3 characters\.<\/p><!--\[if ENDBLOCK\]><!\[endif\]-->/,
  )
  await signup.set('title', 'Abc')
  await signup.call('save')
  t.regex(
    signup.html,
    /class="input">\n<!--\[if BLOCK\]><!\[endif\]--><p class="hint"><!--\[if BLOCK\]><!\[endif\]-->Saved<!--\[if ENDBLOCK\]><!\[endif\]--><\/p><!--\[if ENDBLOCK\]><!\[endif\]-->/,
  )
  await signup.set('title', '<img src=x onerror=alert(1)>')
  await signup.call('claim')
  t.regex(signup.html, /<p class="error">&quot;&lt;img src&#x3D;x onerror&#x3D;alert\(1\)&gt;&quot; is taken\.<\/p>/)
  t.false(signup.html.includes('<img'), 'the message is escaped')
})
