import test from 'ava'
import { page, snapshots, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { lazyFiles } from './lazy.fixtures.ts'

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
