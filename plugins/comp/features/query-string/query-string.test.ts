import test from 'ava'
import { snapshots } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { queryStringFiles } from './query-string.fixtures.ts'

test('query string: initial values read from the URL (typed), and effects.queryString with null for defaults', async (t) => {
  const { client } = await featureApp(t, queryStringFiles)
  const res = await client.get('/page/search?q=shoes&sort=desc&limit=99', { accept: 'text/html' })
  const html = await res.text()
  t.regex(html, /shoes\/desc\/10/, 'q and sort come from the URL; limit is not bound to it')
  const [snapshot] = snapshots(html)
  const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(html)![1]!.replace(/&amp;/g, '&')
  const changed = await call(client, endpoint, snapshot!, {
    updates: [
      ['q', 'boots'],
      ['sort', 'asc'],
    ],
  })
  t.deepEqual(changed.effects.queryString, { q: 'boots', sort: null })
})
