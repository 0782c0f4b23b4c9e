import test from 'ava'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../../core/index.ts'
import { kilnFileTest } from '../../../core/http/errors/kiln-frames.ts'
import { kilnPackageRoot } from '../../../core/support/package-root.ts'

const routes = `import { defineRoutes } from 'kiln-framework'
function bake(): never {
  throw new Error('Linked kiln cracked') // linked-source-marker
}
export default defineRoutes((Route) => {
  Route.get('/bake', () => bake())
})
`

/** Each frame of youch's page: its file as shown (title) and whether it carries the "In App" label. */
function frames(html: string): Array<{ file: string; inApp: boolean }> {
  return html
    .split('<li class="stack-frame ')
    .slice(1)
    .map((frame) => ({ file: /class="stack-frame-filepath" title="([^"]*)"/.exec(frame)?.[1] ?? '', inApp: frame.includes('In App') }))
}

test('Kiln linked from a folder (file: dependency, real path outside node_modules): only the app’s frames are "In App"', async (t) => {
  // An app outside the clone whose node_modules/kiln-framework is a link to the clone, as `kiln new` from a clone makes it.
  const root = mkdtempSync(join(tmpdir(), 'kiln-linked-app-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'linked-shop', type: 'module', private: true }))
  mkdirSync(join(root, 'node_modules'))
  symlinkSync(kilnPackageRoot(), join(root, 'node_modules', 'kiln-framework'), 'dir')
  mkdirSync(join(root, 'routes'))
  writeFileSync(join(root, 'routes', 'web.ts'), routes)
  const app = await createApp({ root, env: { APP_ENV: 'test', APP_DEBUG: 'true' } })
  t.teardown(() => app.close())

  const res = await app.request('/bake', { headers: { accept: 'text/html' } })
  t.is(res.status, 500)
  const html = await res.text()
  t.regex(html, /Linked kiln cracked/)
  const all = frames(html)
  const kiln = all.filter((frame) => frame.file.startsWith(kilnPackageRoot()) || /^(core|plugins|drivers)\//.test(frame.file))
  t.true(kiln.length > 0, 'the stack passes through Kiln’s own files, at their real path (not under node_modules)')
  t.false(
    kiln.some((frame) => frame.file.includes('node_modules')),
    'Node reports the link’s real path',
  )
  for (const frame of kiln) t.false(frame.inApp, `${frame.file} is Kiln's, not the app's`)
  const own = all.filter((frame) => frame.file.includes('routes/web.ts'))
  t.true(own.length > 0 && own.every((frame) => frame.inApp), JSON.stringify(all))
})

test('the rule by folder: Kiln installed, linked, or holding the app (the starter run from a clone)', (t) => {
  // Paths that do not exist are compared as written.
  const linked = kilnFileTest('/home/dev/shop', '/home/dev/kiln')
  t.true(linked('/home/dev/kiln/core/http/pipeline/pipeline.ts'))
  t.false(linked('/home/dev/shop/routes/web.ts'))
  t.false(linked('/home/dev/kiln-tools/x.ts'), 'a sibling folder whose name starts alike')

  const installed = kilnFileTest('/srv/shop', '/srv/shop/node_modules/kiln-framework')
  t.true(installed('/srv/shop/node_modules/kiln-framework/dist/core/index.js'))
  t.false(installed('/srv/shop/app/models/user.ts'))

  const starter = kilnFileTest('/home/dev/kiln/app-template', '/home/dev/kiln')
  t.false(starter('/home/dev/kiln/app-template/routes/web.ts'), 'the app’s files stay the app’s')
  t.true(starter('/home/dev/kiln/plugins/comp/calls.ts'))

  // Windows paths, as youch normalises them (forward slashes).
  const windows = kilnFileTest('C:\\dev\\shop', 'C:\\dev\\kiln')
  t.true(windows('C:/dev/kiln/core/index.ts'))
  t.false(windows('C:/dev/shop/routes/web.ts'))
})
