/**
 * Marks the document booted once Alpine has started every component: the
 * style from `@compScripts` (features/cloak/cloak-style.ts) stops hiding
 * `wire:loading`, `wire:offline`, `wire:dirty` and `wire:cloak` elements,
 * whose directives have set their state by then.
 */
document.addEventListener('alpine:initialized', () => document.documentElement.setAttribute('data-comp-ready', ''))
