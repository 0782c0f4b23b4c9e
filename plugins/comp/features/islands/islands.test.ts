import test from 'ava'
import { page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { islandsFiles } from './islands.fixtures.ts'

test('islands: {{island}} renders inside the component; an island request renders only that island', async (t) => {
  const { client } = await featureApp(t, islandsFiles)
  const { html, snapshot, endpoint } = await page(client, '/page/dashboard')
  t.regex(
    html,
    /<section wire:id="\w+" wire:name="dashboard" wire:snapshot="[^"]+"><h2>Dashboard<\/h2><div wire:island="stats"><b>1 visits<\/b><\/div><\/section>/,
  )
  const island = await call(client, endpoint, snapshot, { calls: [{ method: 'refreshStats' }], island: 'stats' })
  t.deepEqual(island.effects.islands, { stats: '<b>2 visits</b>' })
  t.false('html' in island.effects)
  t.is((await update(client, endpoint, snapshot, { island: 'nope' })).status, 500 - 78, 'an unknown island is 422')
})
