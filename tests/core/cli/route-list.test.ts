import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'
import { cli } from './cli-harness.ts'

const HEADING = 'Broadcasting (Pusher-compatible API for pusher-js and Laravel Echo clients)'

// An app broadcasting on its own port with the Pusher-compatible API on (the default).
const files = {
  'config/app.ts': `import { defineConfig } from 'kiln-framework'
import { broadcasting } from 'kiln-framework/broadcasting'
import websocketDriver from 'kiln-framework/drivers/websocket'
export default defineConfig({ plugins: [broadcasting(), websocketDriver] })
`,
  'config/broadcasting.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ default: 'rt', connections: { rt: { driver: 'rt', key: 'route-list-key', secret: 'route-list-secret' } } })
`,
  'routes/web.ts': `import { defineRoutes } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/', () => 'home').name('home')
  Route.group({ section: 'Admin area' }, () => Route.get('/admin', () => 'admin').name('admin'))
  Route.get('/about', () => 'about').name('about')
})
`,
}

test('route:list lists the Pusher-compatible routes under a heading that says what they are for, after the app’s own', async (t) => {
  const root = tempApp(files)
  const { code, stdout, stderr } = await cli(['route:list'], root)
  t.is(code, 0, stderr)
  const lines = stdout.split('\n')
  const heading = lines.indexOf(HEADING)
  t.true(heading > 0, stdout)
  t.is(lines[heading - 1], '', 'a blank line before the heading')
  const under = (path: RegExp) => lines.findIndex((line) => path.test(line))
  for (const path of [/^POST\s+\/apps\/\{id\}\/events\s/, /^GET\s+\/apps\/\{id\}\/channels\s/, /^WS\s+\/app\/\{key\}/])
    t.true(under(path) > heading, `${path} under the heading`)
  // The app's own routes (and Kiln's own socket) stay above, in the first table.
  for (const path of [/^GET\s+\/\s+home/, /^GET\s+\/about\s+about/, /^WS\s+\/broadcasting\/socket/])
    t.true(under(path) > 0 && under(path) < heading, `${path} above`)
  // A section of the app's own groups gets its heading too; the columns line up across sections.
  t.true(lines.includes('Admin area'))
  t.true(under(/^GET\s+\/admin\s+admin/) > lines.indexOf('Admin area'))
  const column = (line: string) => line.indexOf('/')
  t.is(column(lines[under(/\/apps\/\{id\}\/events/)]!), column(lines[under(/\/about/)]!))
})

test('route:list --json gives each sectioned route its section', async (t) => {
  const root = tempApp(files)
  const rows = JSON.parse((await cli(['route:list', '--json'], root)).stdout) as Array<{ path: string; section?: string }>
  t.deepEqual(
    rows.find((row) => row.path === '/'),
    { method: 'GET', path: '/', name: 'home', handler: 'closure', middleware: 'web' },
  )
  t.is(rows.find((row) => row.path === '/apps/{id}/events')?.section, HEADING)
  t.is(rows.find((row) => row.path === '/app/{key}')?.section, HEADING)
  t.is(rows.find((row) => row.path === '/about')?.section, undefined)
})
