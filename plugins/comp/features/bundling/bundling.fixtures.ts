/** Test components of the bundling feature: a sender, two listeners, an isolated component with an async action. */
export const bundlingFiles = {
  'app/components/sender.ts': `import { HttpException } from 'kiln-framework'
import { Component } from 'kiln-framework/comp'
export default class Sender extends Component {
  count = 0
  bump() { this.count++ }
  // Only the test of refused requests calls it: a run leaves a trace outside the component.
  mark() { (globalThis as any).__bundleMarks = ((globalThis as any).__bundleMarks ?? 0) + 1 }
  send(n: number) { this.dispatch('ping', { n }) }
  sendTo(n: number) { this.dispatch('ping', { n }).to('receiver') }
  sendSelf(n: number) { this.dispatch('ping', { n }).self() }
  deny() { throw new HttpException(403, 'Not you.') }
}
`,
  'resources/views/components/sender.hbs':
    '<div><span id="sent">{{count}}</span><button id="send" wire:click="send(1)">send</button><button id="bump" wire:click="bump">bump</button></div>',
  'app/components/receiver.ts': `import { Component, on } from 'kiln-framework/comp'
export default class Receiver extends Component {
  heard = 0
  @on('ping') hear({ n }: { n: number }) { this.heard += n }
  bump() { this.heard += 100 }
}
`,
  'resources/views/components/receiver.hbs': '<div><span id="heard">{{heard}}</span></div>',
  'app/components/bystander.ts': `import { Component, on } from 'kiln-framework/comp'
export default class Bystander extends Component {
  heard = 0
  @on('ping') hear({ n }: { n: number }) { this.heard += n }
}
`,
  'resources/views/components/bystander.hbs': '<div><span id="bystander">{{heard}}</span></div>',
  'app/components/solo.ts': `import { Component, isolate, async } from 'kiln-framework/comp'
@isolate()
export default class Solo extends Component {
  count = 0
  bump() { this.count++ }
  @async() track() {}
}
`,
  'resources/views/components/solo.hbs': '<div><span id="solo">{{count}}</span><button id="solo-bump" wire:click="bump">bump</button></div>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('sender')\n@comp('receiver')\n@comp('bystander')\n@comp('solo')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}
