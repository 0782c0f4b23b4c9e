import test from 'ava'
import { KilnError } from '../../../core/index.ts'
import { compApp, page } from './comp-fixtures.ts'

// What a class built on another installed copy of kiln-framework looks like from here: its Component carries the
// mark every copy sets, but it is not this copy's class.
const otherCopy = `class Component {}
Object.defineProperty(Component, Symbol.for('kiln.comp.component'), { value: true })
export default class Widget extends Component {
  count = 0
}
`

test('a component class extending another installed copy of Kiln stops the boot with a KilnError naming the file', async (t) => {
  const error = await t.throwsAsync(compApp(t, { 'app/components/widget.ts': otherCopy }))
  t.true(error instanceof KilnError, String(error))
  t.is((error as KilnError).code, 'E_COMP_OTHER_COPY')
  t.regex(error!.message, /widget\.ts: Widget extends the Component of another installed copy of kiln-framework/)
  t.regex((error as KilnError).hint ?? '', /npm ls kiln-framework/)
})

test('a helper module beside the components, with no component in it (even one re-exporting Component), is still skipped', async (t) => {
  const { client } = await compApp(t, {
    // A helper beside the components, which also hands on this copy's Component for them: not a component either.
    'app/components/format.ts':
      "export { Component } from 'kiln-framework/comp'\nexport function money(cents: number) { return `$${(cents / 100).toFixed(2)}` }\n",
    'app/components/price.ts': `import { Component } from 'kiln-framework/comp'
import { money } from './format.ts'
export default class Price extends Component {
  cents = 1250
  render() { return '<span>' + money(this.cents) + '</span>' }
}
`,
    'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('price')",
    'routes/web.ts':
      "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
  })
  const { html } = await page(client, '/')
  t.true(html.includes('$12.50'), html)
})
