import test from 'ava'
import { testComponent } from '../../index.ts'
import { compApp } from '../../../../tests/plugins/comp/comp-fixtures.ts'

const files = {
  'app/components/wizard.ts': `import { Component, transition } from 'kiln-framework/comp'
class Steps extends Component {
  step = 1
  @transition({ type: 'forward' }) next() { this.step++ }
  @transition({ skip: true }) restart() { this.step = 1 }
}
export default class Wizard extends Steps {
  go(to: number) {
    this.transition({ type: to > this.step ? 'forward' : 'backward' })
    this.step = to
  }
  @transition({ type: 'forward' }) reset() {
    this.skipTransition()
    this.step = 1
  }
  plain() { this.step = 0 }
}
`,
  'resources/views/components/wizard.hbs': '<div><p wire:transition="step">{{step}}</p></div>',
}

test("the transition effect: from @transition() (a parent class's too), this.transition() winning over it, skips; absent otherwise", async (t) => {
  const { client } = await compApp(t, files)
  const wizard = await testComponent(client, 'wizard')
  // The effect is this feature's own: the answer's type does not list it.
  const effect = () => (wizard.effects as { transition?: unknown } | undefined)?.transition
  await wizard.call('next')
  t.deepEqual(effect(), { type: 'forward' })
  await wizard.call('go', 1)
  t.deepEqual(effect(), { type: 'backward' })
  await wizard.call('restart')
  t.deepEqual(effect(), { skip: true })
  await wizard.call('reset')
  t.deepEqual(effect(), { skip: true }, "the action's own choice wins over its decorator")
  await wizard.call('plain')
  t.is(effect(), undefined)
  await wizard.refresh()
  t.is(effect(), undefined)
})
