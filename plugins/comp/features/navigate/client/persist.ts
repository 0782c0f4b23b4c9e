// `@persist` blocks ({{#persist "player"}}): on a `wire:navigate` visit, the live element of this page
// (a playing <audio>, a component with its state) moves into the new page in place of its copy there.
// The move happens in one task, so media keeps playing and Alpine sees the element re-added, not removed.
document.addEventListener('comp:swap', (event) => {
  const body = (event as CustomEvent<{ body: HTMLElement }>).detail.body
  for (const placeholder of body.querySelectorAll('[wire\\:persist]')) {
    const name = CSS.escape(placeholder.getAttribute('wire:persist') ?? '')
    const live = document.body.querySelector(`[wire\\:persist="${name}"]`)
    if (live) placeholder.replaceWith(live)
  }
})
