import test from 'ava'
import { page, update } from './comp-fixtures.ts'
import { call, featureApp } from './feature-app.ts'

const files = {
  'app/components/trail.ts': `import { Component } from 'kiln-framework/comp'
export default class Trail extends Component {
  trail: string[] = []
  boot() { this.trail = [\`boot (\${this.trail.length} restored)\`] }
  mount() { this.trail.push('mount') }
  hydrate() { this.trail.push('hydrate') }
  booted() { this.trail.push('booted') }
  act() { this.trail.push('act') }
  render() { return '<div>{{trail.length}}</div>' }
}
`,
  'app/components/careful.ts': `import { Component, validate } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Careful extends Component {
  notes: string[] = []
  failHydrate = false
  after = 0
  @validate(z.string().min(3)) name = ''
  exception(error: unknown, stopPropagation: () => void) {
    const message = error instanceof Error ? error.message : String(error)
    this.notes.push(message)
    if (message.startsWith('soft')) stopPropagation()
  }
  hydrate() { if (this.failHydrate) throw new Error('soft hydrate') }
  soft() { throw new Error('soft failure') }
  async softLater() { await Promise.resolve(); throw new Error('soft later') }
  hard() { throw new Error('hard failure') }
  check() { this.validate() }
  next() { this.after++ }
  render() { return '<div>{{notes.length}} {{after}}</div>' }
}
`,
}

test('boot() runs first on every request: before mount() on the first render, after the state is restored and before hydrate() later', async (t) => {
  const { client } = await featureApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/trail')
  t.deepEqual(snapshot.serverMemo.data.trail, ['boot (0 restored)', 'mount', 'booted'])
  const acted = await call(client, endpoint, snapshot, { calls: [{ method: 'act' }] })
  t.deepEqual(acted.serverMemo.data.trail, ['boot (3 restored)', 'hydrate', 'booted', 'act'])
  t.is((await update(client, endpoint, snapshot, { calls: [{ method: 'boot' }] })).status, 403, 'boot() is not an action')
})

test("exception() hears an action's error; stopPropagation() swallows it and the next calls run", async (t) => {
  const { client } = await featureApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/careful')
  const soft = await call(client, endpoint, snapshot, { calls: [{ method: 'soft' }, { method: 'softLater' }, { method: 'next' }] })
  t.deepEqual(soft.serverMemo.data.notes, ['soft failure', 'soft later'])
  t.is(soft.serverMemo.data.after, 1, 'the calls after the swallowed errors ran')
  t.regex(soft.effects.html, /2 1/)
  const hard = await update(client, endpoint, snapshot, { calls: [{ method: 'hard' }] })
  t.is(hard.status, 500, 'an error the hook does not stop fails the update as before')
  t.is((await update(client, endpoint, snapshot, { calls: [{ method: 'exception', params: [1, 2] }] })).status, 403, 'exception() is not an action')
})

test('exception() hears hydrate(); validation is not an error it sees', async (t) => {
  const { client } = await featureApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/careful')
  const armed = await call(client, endpoint, snapshot, { updates: [['failHydrate', true]] })
  const hydrated = await call(client, endpoint, { fingerprint: snapshot.fingerprint, serverMemo: armed.serverMemo }, { calls: [{ method: 'next' }] })
  t.deepEqual(hydrated.serverMemo.data.notes, ['soft hydrate'])
  t.is(hydrated.serverMemo.data.after, 1)
  const checked = await call(client, endpoint, snapshot, { calls: [{ method: 'check' }] })
  t.deepEqual(checked.serverMemo.data.notes, [], 'validate() stops the calls without reaching exception()')
  t.truthy(checked.effects.errors.name)
})
