/**
 * Components with scripts and assets: `scripted`, a single-file component
 * whose script sets a property and calls an action through `$wire`, and
 * defines a JavaScript action (`$js.shout`) a button calls;
 * `charted`, a class with a view file whose assets (a script and a
 * stylesheet from `public/`) define what its script reads; `host`, which
 * shows both only after an update; `lazy-scripted`, whose script comes with its
 * first render, after the page. `/two` shows two of each, `/host` the host.
 */
export const scriptsFiles: Record<string, string> = {
  'app/components/scripted.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Scripted extends Component {
  greeting = ''
  count = 0
  increment() { this.count++ }
  static template = html\`
    <div class="scripted">
      <span class="greeting">{{greeting}}</span> <span class="count">{{count}}</span>
      <button class="shout" wire:click="$js.shout">shout</button>
    </div>
    @script
    <script>
      window.scriptRuns = (window.scriptRuns || 0) + 1
      $wire.greeting = 'hello ' + (this === $wire)
      await $wire.increment()
      $js.shout = () => {
        $wire.greeting = 'shouted'
        $wire.$commit()
      }
    </script>
    @endscript
  \`
}
`,
  'app/components/charted.ts': `import { Component } from 'kiln-framework/comp'
export default class Charted extends Component {
  seen = ''
}
`,
  'resources/views/components/charted.hbs': `<div class="charted">
  @assets
  <script src="/chart-lib.js"></script>
  <link rel="stylesheet" href="/chart-lib.css">
  @endassets
  <span class="seen">{{seen}}</span>
</div>
@script
<script>
  $wire.seen = window.chartLib
  $wire.$commit()
</script>
@endscript`,
  'public/chart-lib.js': 'window.chartLoads = (window.chartLoads || 0) + 1\nwindow.chartLib = "chart " + window.chartLoads\n',
  'public/chart-lib.css': '.charted { outline: 3px solid rgb(255, 0, 0); }\n',
  'app/components/host.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Host extends Component {
  show = false
  static template = html\`
    <section>
      <button id="show" wire:click="$toggle('show')">show</button>
      {{#if show}}@comp('scripted') @comp('charted'){{/if}}
    </section>
  \`
}
`,
  'app/components/lazy-scripted.ts': `import { Component, html } from 'kiln-framework/comp'
export default class LazyScripted extends Component {
  static lazy = true
  greeting = ''
  static template = html\`
    <div class="lazy-scripted"><span class="greeting">{{greeting}}</span></div>
    @script
    <script>
      $wire.greeting = 'loaded'
      $wire.$commit()
    </script>
    @endscript
  \`
}
`,
  'resources/views/two.hbs': `{{!< layouts/app}}
@comp('scripted')
@comp('scripted')
@comp('charted')
@comp('charted')`,
  'resources/views/host.hbs': `{{!< layouts/app}}
@comp('host')`,
}
