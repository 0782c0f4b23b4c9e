import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import test from 'ava'
import { createApp, DevPages, type Application } from '../../../../core/index.ts'
import { tempApp } from '../../../../tests/fixtures/temp-app.ts'
import { comp } from '../../index.ts'
import { compApp } from '../../../../tests/plugins/comp/comp-fixtures.ts'

/** Every name below is known: the check must find nothing in this component. */
const clean = `import { Component, computed, html } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Scoped extends Component {
  todos = [{ title: 'Milk', tags: ['a'] }]
  form = { title: '' }
  filter = 'all'
  @computed() get left() { return this.todos.length }
  with() {
    // An arrow inside, and a nested function's own return, do not change what with() gives.
    const label = this.todos.map((todo) => todo.title).join(', ')
    const nested = () => {
      return { notData: 1 }
    }
    return { heading: 'To-dos ' + label + String(nested()), 'quoted-key': 1 }
  }
  save() {}
  toggle(index: number) { void index }
  static template = html\`
    <section>
      <h1>{{heading}} {{left}} {{filter}} {{appName}} {{menu}} {{tenant}}</h1>
      <input wire:model.live="form.title" x-on:keydown.enter="$wire.save()" @blur="$wire.$refresh()">
      {{#error "form.title"}}<p>{{message}} {{filter}}</p>{{/error}}
      {{#each todos as |todo i|}}
        <p wire:click="toggle({{i}})" class="{{class done=todo.done}}">{{todo.title}} {{@index}} {{title}} {{../filter}}</p>
        {{#each todo.tags as |tag|}}{{tag}} {{todo.title}}{{/each}}
      {{else}}
        <p>{{heading}}</p>
      {{/each}}
      {{#with form}}{{title}}{{/with}}
      {{#if (eq filter "all")}}{{money left}}{{/if}}
      <button wire:click="$set('filter', 'all')" wire:poll.5s wire:click.prevent="save">x</button>
      @comp('other', start=left)
      {{comp "other"}}
    </section>
  \`
}
void z
`

/** One mistake of each kind, on known lines. */
const typos = `import { Component, html } from 'kiln-framework/comp'
export default class Typos extends Component {
  title = ''
  count = 0
  increment() {}
  static template = html\`
    <div>
      <h1>{{titel}}</h1>
      <input wire:model="cont">
      <button wire:click="incremnt">+</button>
      <button x-on:click="$wire.incement()">+</button>
      {{#each items as |item|}}{{item.x}} {{itme}} {{../cout}}{{/each}}
      {{mony count}}
      @comp('othr')
      <button wire:click="mount">no hooks</button>
      @comp('other', wire:model.live="titl", start=count)
    </div>
  \`
}
`

const other = `import { Component, html } from 'kiln-framework/comp'
export default class Other extends Component {
  start = 0
  static template = html\`<span>{{start}}</span>\`
}
`

/** A two-file component whose render() names its view and passes data. */
const rendered = {
  'app/components/profile.ts': `import { view } from 'kiln-framework'
import { Component } from 'kiln-framework/comp'
export default class Profile extends Component {
  name = ''
  rename() {}
  render() {
    const version = 2
    return view('components/profile-card', { version, shown: true })
  }
}
`,
  'resources/views/components/profile-card.hbs': '<div>\n  {{name}} {{version}} {{shown}}\n  <button wire:click="rename">r</button>\n  {{versoin}}\n</div>\n',
}

async function checked(t: Parameters<typeof compApp>[0], files: Record<string, string>): Promise<{ app: Application; found: string[] }> {
  const { app } = await compApp(t, files, { comp: { template_names: ['tenant'] } })
  // Helpers and composers registered by the app are in scope as they are registered.
  app.views.helper('money', (value: unknown) => String(value))
  app.views.composer(() => ({ menu: [] }), ['menu'])
  const found = (await app.service('checks').run()).map((problem) => `${relative(app.root, problem.file)}:${problem.line}: ${problem.message}`)
  return { app, found }
}

test('a template that reads only what it has in scope passes: properties, computed, with(), block parameters, loop items, helpers, declared names', async (t) => {
  const { found } = await checked(t, { 'app/components/scoped.ts': clean, 'app/components/other.ts': other })
  t.deepEqual(found, [])
})

test('each mistake is found with its file, line and the nearest correct name', async (t) => {
  const { found } = await checked(t, {
    'app/components/typos.ts': typos,
    'app/components/other.ts': other,
    ...rendered,
    // A page: its data comes from its route, so only helpers and component names are checked.
    'resources/views/home.hbs': "{{!< layouts/app}}\n<h1>{{anything}}</h1>\n@comp('othr')\n{{mony 1}}\n",
  })
  t.deepEqual(found, [
    'app/components/typos.ts:8: Typos\'s template reads "titel", which Typos does not have. Did you mean "title"?',
    'app/components/typos.ts:9: wire:model="cont": Typos has no property "cont". Did you mean "count"?',
    'app/components/typos.ts:10: wire:click="incremnt": Typos has no action "incremnt" (a public method the browser may call). Did you mean "increment"?',
    'app/components/typos.ts:11: x-on:click="$wire.incement()": Typos has no action "incement" (a public method the browser may call). Did you mean "increment"?',
    'app/components/typos.ts:12: Typos\'s template reads "items", which Typos does not have.',
    // Inside the loop a bare name reads the item (not checked); ../ reads the component's data.
    'app/components/typos.ts:12: Typos\'s template reads "cout", which Typos does not have. Did you mean "count"?',
    'app/components/typos.ts:13: Typos\'s template calls "mony", which is not a helper. Did you mean "money"?',
    'app/components/typos.ts:14: Typos\'s template nests the component "othr", which is not registered. Did you mean "other"?',
    'app/components/typos.ts:15: wire:click="mount": Typos has no action "mount" (a public method the browser may call).',
    'app/components/typos.ts:16: Typos\'s template binds wire:model="titl" on a child, and Typos has no property "titl". Did you mean "title"?',
    'resources/views/components/profile-card.hbs:4: Profile\'s template reads "versoin", which Profile does not have. Did you mean "version"?',
    'resources/views/home.hbs:3: The view home nests the component "othr", which is not registered. Did you mean "other"?',
    'resources/views/home.hbs:4: The view home calls "mony", which is not a helper. Did you mean "money"?',
  ])
})

/** The warnings an app logged at boot, from its log file (JSON lines), that start with "comp: ". */
async function bootWarnings(
  files: Record<string, string>,
  dev: DevPages | undefined,
  after?: (app: Application, log: string) => Promise<void>,
): Promise<string[]> {
  const log = join(mkdtempSync(join(tmpdir(), 'kiln-log-')), 'app.log')
  const app = await createApp({
    root: tempApp({ 'resources/views/layouts/app.hbs': '{{{body}}}', ...files }),
    env: { APP_ENV: 'development', APP_KEY: 'base64:' + Buffer.alloc(32, 7).toString('base64') },
    plugins: [comp()],
    config: { session: { driver: 'memory' }, logging: { level: 'info', channels: ['file'], file: { path: log } } },
    dev,
  })
  await after?.(app, log)
  await app.close()
  // The file logger writes asynchronously: wait until it has flushed what boot logged.
  for (let i = 0; i < 50 && !existsSync(log); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  return (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [])
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level === 40 && line.msg.startsWith('comp: '))
    .map((line) => line.msg)
}

test('under kiln dev, each mistake is a warning in the log once the app has booted', async (t) => {
  const warnings = await bootWarnings({ 'app/components/typos.ts': typos, 'app/components/other.ts': other }, new DevPages())
  t.true(
    warnings.includes('comp: app/components/typos.ts:8: Typos\'s template reads "titel", which Typos does not have. Did you mean "title"?'),
    warnings.join('\n'),
  )
  t.true(warnings.some((line) => line.startsWith('comp: app/components/typos.ts:10: wire:click="incremnt"') && line.endsWith('Did you mean "increment"?')))
  t.is(warnings.length, 10)
})

test('under kiln dev, a saved view is checked again: its mistakes are warnings at once, without a reload of the app', async (t) => {
  const card = `import { Component } from 'kiln-framework/comp'
export default class Card extends Component {
  title = ''
}
`
  const warnings = await bootWarnings(
    { 'app/components/card.ts': card, 'resources/views/components/card.hbs': '<div>{{title}}</div>\n' },
    new DevPages(),
    async (app, log) => {
      const file = join(app.root, 'resources/views/components/card.hbs')
      writeFileSync(file, '<div>\n  {{titl}}\n</div>\n')
      // What kiln dev does on a save.
      app.views.forget(file)
      // The check runs after the engines forgot the file: wait for its line (the file logger writes asynchronously).
      for (let i = 0; i < 100 && !(existsSync(log) && readFileSync(log, 'utf8').includes('titl')); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    },
  )
  t.deepEqual(warnings, ['comp: resources/views/components/card.hbs:2: Card\'s template reads "titl", which Card does not have. Did you mean "title"?'])
})

test('other commands of a development app log nothing at boot: the check runs when asked (kiln check, kiln build)', async (t) => {
  t.deepEqual(await bootWarnings({ 'app/components/typos.ts': typos, 'app/components/other.ts': other }, undefined), [])
})
