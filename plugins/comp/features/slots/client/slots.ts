import { alpine } from '../../../client/alpine.ts'
import { onComponent } from '../../../client/component-hooks.ts'
import { onEffect, wrapApply } from '../../../client/effects.ts'
import type { PageComponent } from '../../../client/page-component.ts'
import { claimElements, components } from '../../../client/registry.ts'

/**
 * The browser half of slots. A slot's content sits in the child's element
 * between two comments, `<!--[if SLOT:name:parent]>` and
 * `<!--[if ENDSLOT:name]>`: it is the parent's (its `wire:click` calls the
 * parent), the child's own re-render sends the comments alone and keeps
 * the content the page has, and the parent's re-render sends new content
 * (the `slots` effect), morphed in between them. A slot the child's first
 * render did not show comes in a `<template wire:slot>` at the end of its
 * root, kept here until the child shows it.
 */
const START = /^\[if SLOT:([\w-]+):(\w*)\]/
const END = /^\[if ENDSLOT:([\w-]+)\]/
const EMPTY = /<!--\[if SLOT:([\w-]+):(\w*)\]><!\[endif\]--><!--\[if ENDSLOT:\1\]><!\[endif\]-->/g

/** The last content of each slot (`id:name`), for a slot the child shows again after hiding it. */
const last = new Map<string, string>()

type MorphBetween = (start: Node, end: Node, html: string, options: Record<string, unknown>) => void

onComponent({
  start(component) {
    if (!component.memo.slots) return
    // Slots its first render did not show: kept for when it does.
    for (const kept of component.el.querySelectorAll(':scope > template[wire\\:slot]')) {
      last.set(`${component.id}:${kept.getAttribute('wire:slot')}`, kept.innerHTML)
      kept.remove()
    }
  },
})

// Inside a slot's content, an element is the parent's.
claimElements((el) => {
  const root = el.closest('[wire\\:id]')
  // Only a component given slots has any: the others' elements are not looked at.
  if (!root || !components.get(root.getAttribute('wire:id')!)?.memo.slots) return undefined
  for (let node: Node | null = el; node && node !== root; node = node.parentNode) {
    for (let sibling = node.previousSibling; sibling; sibling = sibling.previousSibling) {
      if (sibling.nodeType !== Node.COMMENT_NODE) continue
      const text = (sibling as Comment).data
      if (END.test(text)) break
      const start = START.exec(text)
      if (start) return start[2] || undefined
    }
  }
  return undefined
})

/** The component's slots in the page: name → its two comments. */
function regions(component: PageComponent): Map<string, [Comment, Comment]> {
  const found = new Map<string, [Comment, Comment]>()
  const walker = document.createTreeWalker(component.el, NodeFilter.SHOW_COMMENT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const start = START.exec((node as Comment).data)
    // Another component's slots (a child of the child) are that component's.
    if (!start || node.parentElement?.closest('[wire\\:id]') !== component.el) continue
    for (let end = node.nextSibling; end; end = end.nextSibling) {
      if (end.nodeType === Node.COMMENT_NODE && END.exec((end as Comment).data)?.[1] === start[1]) {
        found.set(start[1]!, [node as Comment, end as Comment])
        break
      }
    }
  }
  return found
}

/** The HTML of what lies between two comments, as the page has it now. */
function between(start: Node, end: Node): string {
  let html = ''
  for (let node = start.nextSibling; node && node !== end; node = node.nextSibling) {
    if (node instanceof Element) html += node.outerHTML
    else if (node.nodeType === Node.TEXT_NODE) html += (node as Text).data.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
    else if (node.nodeType === Node.COMMENT_NODE) html += `<!--${(node as Comment).data}-->`
  }
  return html
}

// The child's own re-render: its slots come back empty, and get the content the page has (or had).
wrapApply((component, effects, apply) => {
  const html = effects.html
  const parent = (component.memo.slots as { parent?: string } | undefined)?.parent ?? ''
  if (typeof html === 'string' && html.includes('<!--[if SLOT:')) {
    const current = regions(component)
    for (const [name, [start, end]] of current) last.set(`${component.id}:${name}`, between(start, end))
    effects.html = html.replace(EMPTY, (all, name: string, owner: string) => {
      if (owner !== parent) return all
      const content = last.get(`${component.id}:${name}`) ?? ''
      return `<!--[if SLOT:${name}:${owner}]><![endif]-->${content}<!--[if ENDSLOT:${name}]><![endif]-->`
    })
  }
  apply()
})

// The parent's re-render: the new content of the slots of the children it rendered before.
onEffect('slots', (_parent, value: Record<string, Record<string, string>>) => {
  const morphBetween = (alpine() as unknown as { morphBetween?: MorphBetween }).morphBetween
  for (const [id, slots] of Object.entries(value)) {
    const child = components.get(id)
    if (!child) continue
    const found = regions(child)
    for (const [name, html] of Object.entries(slots)) {
      last.set(`${id}:${name}`, html)
      const region = found.get(name)
      if (!region || !morphBetween) continue
      morphBetween(region[0], region[1], html, {
        key: (node: Element) => node.getAttribute?.('wire:key') ?? node.getAttribute?.('wire:id') ?? undefined,
        // A component inside the slot renders itself: the new HTML holds an empty placeholder for it.
        updating(from: Node, _to: Node, _childrenOnly: () => void, skip: () => void) {
          if (from instanceof Element && from.hasAttribute('wire:id')) skip()
        },
        lookahead: false,
      })
    }
  }
})
