import { onComponent } from '../../../client/component-hooks.ts'
import { onEffect } from '../../../client/effects.ts'
import type { PageComponent } from '../../../client/page-component.ts'
import { assetsLoaded } from './assets.ts'

/** What a component's script module exports (`GET /comp/scripts/<hash>.js`). */
interface ScriptModule {
  run?: (this: unknown, $wire: unknown, $js: unknown) => unknown
}

const HASH = /^[a-f0-9]{20}$/
/** The scripts each component in the page has run, by hash: a component runs each once. */
const ran = new WeakMap<PageComponent, Set<string>>()

/**
 * Runs the `@script` blocks a component's view uses that it has not run
 * yet: each is a module of the app's (`<base>/comp/scripts/<hash>.js`),
 * imported, not evaluated from a string, so a page under a nonce-only
 * Content-Security-Policy runs it (an import from comp.js carries comp.js's
 * nonce). Only hashes are read from the snapshot: a snapshot written into
 * the page by someone else can name the app's scripts, never an address.
 */
function runScripts(component: PageComponent, hashes: unknown): void {
  if (!Array.isArray(hashes)) return
  let done = ran.get(component)
  if (!done) ran.set(component, (done = new Set()))
  for (const hash of hashes) {
    if (typeof hash !== 'string' || !HASH.test(hash) || done.has(hash)) continue
    done.add(hash)
    void run(component, `${component.config.base}/comp/scripts/${hash}.js`)
  }
}

async function run(component: PageComponent, url: string): Promise<void> {
  try {
    const module = (await import(url)) as ScriptModule
    // The assets an answer brought with the component are in the page before its script runs.
    await assetsLoaded()
    await module.run?.call(component.$wire, component.$wire, component.$wire.$js)
  } catch (error) {
    console.error(error)
  }
}

// A component that starts: in the page, added by an update or by a wire:navigate visit.
onComponent({ start: (component) => runScripts(component, component.memo.scripts) })

// A script that appears in an update (a lazy component's first render, a block shown by @if).
onEffect<string[]>('scripts', (component, hashes) => runScripts(component, hashes))
