import test from 'ava'
import type { KilnError } from '../../../../core/index.ts'
import { next, page, snapshots, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { lazyFiles, lazyPerUseFiles } from './lazy.fixtures.ts'

test('lazy and deferred components render a placeholder; $load mounts them with the kept parameters; other calls wait for it', async (t) => {
  const { client } = await featureApp(t, lazyFiles)
  const res = await client.get('/page/lazy-card', { accept: 'text/html' })
  const html = await res.text()
  t.regex(html, /<div wire:id="\w+" wire:name="lazy-card" wire:snapshot="[^"]+" class="placeholder">Loading…<\/div>/)
  const [snapshot] = snapshots(html)
  t.deepEqual(snapshot!.serverMemo.lazy, { mode: 'lazy', params: {}, types: [] })
  const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(html)![1]!.replace(/&amp;/g, '&')
  t.is((await update(client, endpoint, snapshot!, { calls: [{ method: '$refresh' }] })).status, 422)
  const loaded = await call(client, endpoint, snapshot!, { calls: [{ method: '$load' }] })
  t.regex(loaded.effects.html, /<article wire:id="\w+" wire:name="lazy-card">none 1<\/article>/)
  t.false('lazy' in loaded.serverMemo)
  const deferred = await page(client, '/page/deferred-card')
  t.is(deferred.snapshot.serverMemo.lazy.mode, 'defer')
  t.regex(deferred.html, /<div wire:id="\w+" wire:name="deferred-card" wire:snapshot="[^"]+"><\/div>/)
})

test('lazy=true on one use makes any component lazy, with its placeholder(params); lazy=false loads a lazy class with the page', async (t) => {
  const { client } = await featureApp(t, lazyPerUseFiles)
  const { html, endpoint } = await page(client, '/page/chart-page')
  // The placeholder sees the parameters (escaped as in any view), never the lazy option itself.
  t.regex(html, /<div wire:id="\w+" wire:name="sales-chart" wire:snapshot="[^"]+" class="placeholder">Loading Sales &lt;b&gt; \(no, title\)…<\/div>/)
  t.regex(html, /<article wire:id="\w+" wire:name="lazy-card" wire:snapshot="[^"]+">Now 1<\/article>/, 'lazy=false: mounted with the page')
  const [, chart, card] = snapshots(html)
  t.deepEqual(chart!.serverMemo.lazy, { mode: 'lazy', params: { title: 'Sales <b>' }, types: [] })
  t.false('lazy' in card!.serverMemo)
  const loaded = await call(client, endpoint, chart!, { calls: [{ method: '$load' }] })
  t.regex(loaded.effects.html, /<article wire:id="\w+" wire:name="sales-chart">Sales &lt;b&gt; mounted with title<\/article>/)
  t.false('lazy' in loaded.serverMemo)
})

test('placeholder() is not an action; a lazy option other than true or false names the mistake', async (t) => {
  const { client, app } = await featureApp(t, lazyPerUseFiles)
  const { html, endpoint } = await page(client, '/page/chart-page')
  const [, chart] = snapshots(html)
  const loaded = await call(client, endpoint, chart!, { calls: [{ method: '$load' }] })
  const refused = await update(client, endpoint, next(chart!, loaded), { calls: [{ method: 'placeholder', params: [{}] }] })
  t.is(refused.status, 403)
  const error = await t.throwsAsync(app.service('comp').mount('bad-option', {}))
  t.is((error as KilnError).code, 'E_COMP_LAZY_OPTION')
  t.regex(error!.message, /lazy= takes true or false, not "soon"/)
})
