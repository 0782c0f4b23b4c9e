import test from 'ava'
import { testComponent } from '../../../plugins/comp/index.ts'
import { compApp } from './comp-fixtures.ts'

const files = {
  'app/components/journal.ts': `import { Component } from 'kiln-framework/comp'
export default class Journal extends Component {
  title = ''
  address = { city: '' }
  log: string[] = []
  mount() { this.log.push('mount') }
  hydrate() { this.log = ['hydrate'] }
  booted() { this.log.push('booted') }
  updating(path: string, value: unknown) { this.log.push(\`updating \${path}=\${value}\`) }
  updatingTitle(value: string) { this.log.push(\`updatingTitle \${value} (was "\${this.title}")\`) }
  updated(path: string, value: unknown) { this.log.push(\`updated \${path}=\${value}\`) }
  updatedTitle(value: string) { this.log.push(\`updatedTitle \${value} (now "\${this.title}")\`) }
  updatedAddress() { this.log.push('updatedAddress') }
  touch() { this.log.push('touch') }
  rendering() { this.log.push('rendering') }
  rendered(html: string) { this.log.push(\`rendered \${html.includes('<ol>')}\`) }
  dehydrate() { this.log.push('dehydrate') }
  render() { return '<div><ol>{{#each log}}<li>{{this}}</li>{{/each}}</ol></div>' }
}
`,
}

test('lifecycle hooks run in order: mount or hydrate, booted, property hooks around each update, the calls, rendering, rendered, dehydrate', async (t) => {
  const { client } = await compApp(t, files)
  const journal = await testComponent(client, 'journal')
  t.deepEqual(journal.get('log'), ['mount', 'booted', 'rendering', 'rendered true', 'dehydrate'])
  // The render shows the log as it was when rendering started.
  t.regex(journal.html, /<li>mount<\/li><li>booted<\/li><li>rendering<\/li><!--\[if ENDBLOCK\]><!\[endif\]--><\/ol>/)
  await journal.set('title', 'Day one')
  t.deepEqual(journal.get('log'), [
    'hydrate',
    'booted',
    'updating title=Day one',
    'updatingTitle Day one (was "")',
    'updated title=Day one',
    'updatedTitle Day one (now "Day one")',
    'rendering',
    'rendered true',
    'dehydrate',
  ])
  await journal.set('address.city', 'Oslo')
  await journal.call('touch')
  t.deepEqual(journal.get('log'), ['hydrate', 'booted', 'touch', 'rendering', 'rendered true', 'dehydrate'])
})

test('property hooks run for the whole property, not for a path inside it', async (t) => {
  const { client } = await compApp(t, files)
  const journal = await testComponent(client, 'journal')
  await journal.set('address.city', 'Oslo')
  t.deepEqual((journal.get('log') as string[]).slice(2, 4), ['updating address.city=Oslo', 'updated address.city=Oslo'])
  t.false((journal.get('log') as string[]).includes('updatedAddress'))
  await journal.set('address', { city: 'Bergen' })
  t.true((journal.get('log') as string[]).includes('updatedAddress'))
})
