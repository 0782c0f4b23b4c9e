/** Quick visits show no bar: it appears only when a visit takes longer than this. */
const DELAY_MS = 150

let timer: ReturnType<typeof setTimeout> | undefined
let bar: HTMLElement | undefined

// A thin bar at the top of the page during slow `wire:navigate` visits. Styled through the CSSOM
// (element.style), which a strict Content-Security-Policy allows, unlike style attributes or inline <style>.
document.addEventListener('comp:navigate', () => {
  const color = window.__COMP__?.progressBar
  if (color === false || timer || bar) return
  timer = setTimeout(() => {
    timer = undefined
    bar = document.createElement('div')
    bar.id = 'comp-progress'
    bar.setAttribute('role', 'progressbar')
    bar.style.cssText = 'position:fixed;top:0;left:0;height:3px;width:0;z-index:2147483647;transition:width 8s cubic-bezier(.1,.8,.2,1),opacity .3s'
    bar.style.background = color ?? '#2299dd'
    // On the root element, not the body: the body is what a visit replaces.
    document.documentElement.append(bar)
    requestAnimationFrame(() => requestAnimationFrame(() => bar && (bar.style.width = '90%')))
  }, DELAY_MS)
})

document.addEventListener('comp:navigated', () => {
  clearTimeout(timer)
  timer = undefined
  const done = bar
  bar = undefined
  if (!done) return
  done.style.transition = 'width .2s,opacity .3s .2s'
  done.style.width = '100%'
  done.style.opacity = '0'
  setTimeout(() => done.remove(), 600)
})
