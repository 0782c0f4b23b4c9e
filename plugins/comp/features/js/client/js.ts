import { onEffect } from '../../../client/effects.ts'
import { runJs } from '../../../client/wire.ts'

// `this.js(code)` on the server: runs after the answer is applied, with `$wire` in scope.
onEffect<string[]>('js', (component, scripts) => {
  for (const code of scripts) runJs(component, code)
})
