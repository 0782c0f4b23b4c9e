import { alpine } from './alpine.ts'

/** Whether the browser is online, reactive for `wire:offline` / `wire:online`. */
export let network: { online: boolean } = { online: true }

/** Starts following the browser's connectivity. */
export function watchNetwork(): void {
  network = alpine().reactive({ online: navigator.onLine })
  window.addEventListener('online', () => (network.online = true))
  window.addEventListener('offline', () => (network.online = false))
}
