import { onEffect } from '../../../client/effects.ts'
import { navigate } from '../../../client/navigate.ts'

// `this.redirect(url)` on the server: a page load, or a `wire:navigate` visit on pages that use it.
onEffect<string>('redirect', (_component, url) => void navigate(url, { hard: !document.querySelector('[wire\\:navigate]') }))
