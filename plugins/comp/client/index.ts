import morph from '@alpinejs/morph'
import { alpine, type AlpineApi, type BootConfig } from './alpine.ts'
import { CompComponent } from './component.ts'
import { componentMoment } from './component-hooks.ts'
import type { PageComponent } from './page-component.ts'
import { readConfig } from './config.ts'
import { initDirectives } from './directives/index.ts'
import { globalApi } from './global-api.ts'
import { hook, interceptEveryAction, interceptRequest } from './interceptors.ts'
import { interceptMessage } from './message-interceptors.ts'
import { watchCurrentLinks } from './directives/current.ts'
import { showReloadNotice } from './overlay.ts'
import { watchNetwork } from './network.ts'
import { closestComponent, components } from './registry.ts'
import { errorBag } from './wire.ts'
import '../features/client.ts'

/**
 * The component client. It loads before Alpine.js, so it hears Alpine's
 * `alpine:init` and plugs in: every `[wire:id]` element becomes an Alpine
 * root with its component's state in scope, every element inside one gets
 * its `wire:*` directives, `$wire` and `$errors` are Alpine magics, and the
 * morph plugin patches the DOM. If Alpine did not load from the CDN, Kiln's
 * own copy is loaded instead.
 */
const config = readConfig(document.currentScript as HTMLScriptElement | null)

function install(Alpine: AlpineApi, config: BootConfig): void {
  Alpine.plugin(morph as unknown as (alpine: AlpineApi) => void)
  watchNetwork()
  Alpine.addRootSelector(() => '[wire\\:id]')
  Alpine.interceptInit(
    Alpine.skipDuringClone((el: Element) => {
      if (el.hasAttribute('wire:id')) {
        const existing = components.get(el.getAttribute('wire:id')!)
        if (!existing) start(Alpine, el as HTMLElement, config)
        // A new root element for a known component (its root tag changed in an update): move the component onto it.
        else if ((el as HTMLElement & { __comp?: PageComponent }).__comp !== existing) adopt(Alpine, existing, el as HTMLElement)
      }
      const component = closestComponent(el)
      if (component) initDirectives(component, el)
    }),
  )
  Alpine.magic('wire', (el) => closestComponent(el)?.$wire)
  Alpine.magic('errors', (el) => {
    const component = closestComponent(el)
    return component ? errorBag(component) : {}
  })
}

function start(Alpine: AlpineApi, el: HTMLElement, config: BootConfig): void {
  if (!el.hasAttribute('wire:snapshot')) return
  const component = new CompComponent(el, config)
  components.set(component.id, component)
  adopt(Alpine, component, el)
  componentMoment('start', component)
  const lazy = component.memo.lazy
  if (lazy?.mode === 'lazy') {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return
      observer.disconnect()
      void component.call('$load')
    })
    observer.observe(el)
  } else if (lazy?.mode === 'defer') {
    // The next frame after the page has painted.
    requestAnimationFrame(() => setTimeout(() => void component.call('$load'), 0))
  }
}

/** Makes `el` the component's root: its state in scope for expressions, and the component forgotten when it goes. */
function adopt(Alpine: AlpineApi, component: PageComponent, el: HTMLElement): void {
  component.el = el
  ;(el as HTMLElement & { __comp?: PageComponent }).__comp = component
  // Expressions inside the component see its state, as `count` and as `$wire.count`.
  Alpine.addScopeToNode(el, component.data)
  Alpine.onElRemoved(el, () => {
    if (components.get(component.id) !== component || component.el !== el) return
    components.delete(component.id)
    componentMoment('remove', component)
  })
}

document.addEventListener('alpine:init', () => install(alpine(), config))

// The JavaScript API on the global object; `comp:init` tells scripts that ran earlier it is there.
window.comp = {
  ...window.comp,
  hook: (name: string, callback: Parameters<typeof hook>[1]) => hook(name, callback),
  interceptRequest,
  interceptAction: interceptEveryAction,
  interceptMessage: (callback: Parameters<typeof interceptMessage>[0]) => interceptMessage(callback),
  ...globalApi,
}
document.dispatchEvent(new CustomEvent('comp:init'))

// wire:current links anywhere in the page, marked now and after each wire:navigate visit.
watchCurrentLinks()

// The CDN copy of Alpine failed (offline, blocked): load Kiln's, which then starts itself.
document.addEventListener('DOMContentLoaded', () => {
  showReloadNotice()
  if (window.Alpine) return
  const fallback = document.querySelector('script[data-comp-reactive]')?.getAttribute('data-fallback') ?? config.reactive
  if (!fallback) return console.error('comp: Alpine.js did not load, and there is no fallback copy.')
  const script = document.createElement('script')
  script.src = fallback
  document.head.append(script)
})
