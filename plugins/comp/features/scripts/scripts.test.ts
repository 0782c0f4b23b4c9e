import { createHash } from 'node:crypto'
import test from 'ava'
import { page, snapshots } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { scriptModule } from './script-blocks.ts'
import { scriptsFiles } from './scripts.fixtures.ts'

const files: Record<string, string> = {
  ...scriptsFiles,
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/two', (ctx) => {
    ctx.response.headers.set('content-security-policy', "script-src 'nonce-n0nc3'; style-src 'nonce-n0nc3'")
    return view('two', { title: 'two' })
  })
  Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' }))
  Route.get('/plain', () => view('plain', { title: 'plain' }))
  Route.get('/page-script', () => view('page-script', { title: 'page script' }))
})
`,
  'resources/views/plain.hbs': `{{!< layouts/app}}
@assets <script src="/x.js"></script> @endassets
<p>page</p>
@assets <script src="/x.js"></script> @endassets`,
  'resources/views/page-script.hbs': `{{!< layouts/app}}
<p>page</p>
@script <script>console.log('page')</script> @endscript`,
}

const count = (text: string, part: string) => text.split(part).length - 1

test('a page prints each block of assets once, with the nonce, and its snapshots name the scripts their views use', async (t) => {
  const { client } = await featureApp(t, files)
  const { html } = await page(client, '/two')
  t.is(count(html, '<script data-comp-asset='), 1, 'one script tag for two components')
  t.is(count(html, '<link data-comp-asset='), 1, 'one stylesheet for two components')
  t.regex(html, /<script data-comp-asset="[a-f0-9]{20}" nonce="n0nc3" src="\/chart-lib\.js"><\/script>/)
  t.false(html.includes('@script') || html.includes('$wire.greeting'), 'a script block is not in the HTML')
  const [first, second, chart, chartAgain] = snapshots(html)
  t.regex(first!.serverMemo.scripts[0], /^[a-f0-9]{20}$/)
  t.deepEqual(second!.serverMemo.scripts, first!.serverMemo.scripts)
  t.notDeepEqual(chart!.serverMemo.scripts, first!.serverMemo.scripts)
  t.deepEqual(chart!.serverMemo.assets, chartAgain!.serverMemo.assets)
  t.is(chart!.serverMemo.assets.length, 1)
})

test('GET /comp/scripts/<hash>.js serves a script block as a module, cached for good; an unknown one is a 404', async (t) => {
  const { client } = await featureApp(t, files)
  const [scripted] = snapshots((await page(client, '/two')).html)
  const res = await client.get(`/comp/scripts/${scripted!.serverMemo.scripts[0]}.js`)
  t.is(res.status, 200)
  t.is(res.headers.get('content-type'), 'text/javascript; charset=utf-8')
  t.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  const body = await res.text()
  t.true(body.startsWith('export async function run($wire, $js) {\n'))
  t.true(body.includes("$wire.greeting = 'hello ' + (this === $wire)"))
  t.false(body.includes('<script>'))
  for (const path of ['/comp/scripts/0123456789abcdef0123.js', '/comp/scripts/..%2F..%2Fpackage.json', '/comp/scripts/x.js']) {
    const missing = await client.get(path, { accept: 'application/json' })
    t.is(missing.status, 404, path)
    t.is(typeof (await missing.json()).message, 'string')
  }
})

test('an update that adds components answers with their assets once, and their snapshots name their scripts', async (t) => {
  const { client } = await featureApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/host')
  const shown = await call(client, endpoint, snapshot, { calls: [{ method: '$toggle', params: ['show'] }] })
  const assets = Object.entries(shown.effects.assets as Record<string, string>)
  t.is(assets.length, 1)
  t.regex(assets[0]![1], /^<script src="\/chart-lib\.js"><\/script>\s*<link rel="stylesheet" href="\/chart-lib\.css">$/)
  t.false((shown.effects.html as string).includes('data-comp-asset'), 'an update prints no assets tags')
  const children = snapshots(shown.effects.html as string)
  t.is(children.length, 2)
  t.true(children.every((child) => /^[a-f0-9]{20}$/.test(child.serverMemo.scripts[0])))
  t.deepEqual(shown.serverMemo.assets, [assets[0]![0]])
  // Hidden and shown again: the host sent those assets before, so the answer does not carry them again.
  const hidden = await call(
    client,
    endpoint,
    { fingerprint: snapshot.fingerprint, serverMemo: shown.serverMemo },
    { calls: [{ method: '$toggle', params: ['show'] }] },
  )
  const again = await call(
    client,
    endpoint,
    { fingerprint: snapshot.fingerprint, serverMemo: hidden.serverMemo },
    { calls: [{ method: '$toggle', params: ['show'] }] },
  )
  t.is(again.effects.assets, undefined)
  t.is(snapshots(again.effects.html as string).length, 2)
})

test('a script block becomes a module: its imports first, the rest in run($wire, $js)', (t) => {
  const module = scriptModule(`
    <script>
      import confetti from '/confetti.js'
      import { a, b } from "/ab.js";
      import '/side-effect.js'
      confetti(a, b)
    </script>`)
  t.is(
    module,
    `import confetti from '/confetti.js'\nimport { a, b } from "/ab.js";\nimport '/side-effect.js'\nexport async function run($wire, $js) {\n      confetti(a, b)\n}\n`,
  )
})

test('a process that never rendered a component still serves its script: it reads the components views first', async (t) => {
  const block = "\n<script>\n  $wire.unseen = 'seen'\n</script>\n"
  const { client } = await featureApp(t, {
    ...files,
    'app/components/unseen.ts': "import { Component } from 'kiln-framework/comp'\nexport default class Unseen extends Component {}\n",
    'resources/views/components/unseen.hbs': `<div></div>\n@script${block}@endscript`,
  })
  const hash = createHash('sha256').update(scriptModule(block)).digest('hex').slice(0, 20)
  const res = await client.get(`/comp/scripts/${hash}.js`)
  t.is(res.status, 200)
  t.true((await res.text()).includes("$wire.unseen = 'seen'"))
})

test('@assets in a page outside components prints once for the same tags', async (t) => {
  const { client } = await featureApp(t, files)
  const res = await client.get('/plain', { accept: 'text/html' })
  const html = await res.text()
  t.is(res.status, 200)
  t.is(count(html, 'src="/x.js"'), 1)
  t.regex(html, /<script data-comp-asset="[a-f0-9]{20}" src="\/x\.js"><\/script>/)
})

test('@script outside a component view is an error that says where a page script goes', async (t) => {
  const { client } = await featureApp(t, files, { APP_DEBUG: 'true' })
  const res = await client.get('/page-script', { accept: 'application/json' })
  t.is(res.status, 500)
  t.regex((await res.json()).stack.join('\n'), /@script … @endscript belongs in a component view: a page or layout script is a <script nonce="…"> tag/)
})
