import { onEffect } from '../../../client/effects.ts'
import { navigate } from '../../../client/navigate.ts'

let usingNavigate = false

// this.redirect(url, { navigate: true }): registered before `redirect`, so it is known when the redirect is followed.
onEffect<true>('redirectUsingNavigate', () => (usingNavigate = true))

// `this.redirect(url)` on the server: a page load, or a `wire:navigate` visit when asked for or on pages that use it.
onEffect<string>('redirect', (_component, url) => {
  const soft = usingNavigate || !!document.querySelector('[wire\\:navigate],[wire\\:navigate\\.hover]')
  usingNavigate = false
  void navigate(url, { hard: !soft })
})
