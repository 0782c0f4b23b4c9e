import test from 'ava'
import { compApp, page, pageFiles, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'

/** A component that redirects to the address in its state, to this site only or (`away`) anywhere. */
const files: Record<string, string> = {
  ...pageFiles,
  'app/components/leaving.ts': `import { Component } from 'kiln-framework/comp'
export default class Leaving extends Component {
  target = ''
  go() { this.redirect(this.target) }
  away() { this.redirect(this.target, { away: true }) }
}
`,
  'resources/views/components/leaving.hbs': '<div>{{target}}</div>',
}

test('this.redirect(): paths and this site are followed; another site only with { away: true }; other schemes never (400)', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/leaving')
  const go = async (target: string, method = 'go') => {
    const res = await update(client, endpoint, snapshot, { updates: [['target', target]], calls: [{ method }] })
    const body = (await res.json()) as { effects?: { redirect?: string }; message?: string }
    return { status: res.status, redirect: body.effects?.redirect, message: body.message }
  }
  t.deepEqual(await go('/todos?page=2'), { status: 200, redirect: '/todos?page=2', message: undefined })
  t.is((await go('https://elsewhere.example/x')).status, 400)
  t.regex((await go('https://elsewhere.example/x')).message!, /away: true/)
  t.is((await go('https://elsewhere.example/x', 'away')).redirect, 'https://elsewhere.example/x')
  for (const target of [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '//evil.example/x',
  ]) {
    t.is((await go(target, 'away')).status, target.startsWith('//') ? 200 : 400, target)
    t.is((await go(target)).status, 400, target)
  }
})
