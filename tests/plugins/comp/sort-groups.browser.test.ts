import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'

const list = (name: string) =>
  `<ul id="${name}" wire:sort="move" wire:sort:group="cards" wire:sort:group-id="${name}" style="min-height: 40px">{{#each ${name}}}<li wire:key="{{this}}" wire:sort:item="{{this}}" id="item-{{this}}" style="padding: 10px"><span wire:sort:handle id="handle-{{this}}">=</span> <b id="body-{{this}}">{{this}}</b> <i wire:sort:ignore><span wire:sort:handle id="ignored-{{this}}">x</span></i></li>{{/each}}</ul>`

const files = {
  'app/components/board.ts': `import { Component } from 'kiln-framework/comp'
export default class Board extends Component {
  todo = ['a', 'b']
  done = ['c']
  moves = ''
  move(item: string, position: number, column: 'todo' | 'done') {
    this.todo = this.todo.filter((key) => key !== item)
    this.done = this.done.filter((key) => key !== item)
    this[column].splice(position, 0, item)
    this.moves += item + position + column + ';'
  }
}
`,
  'resources/views/components/board.hbs': `<div>${list('todo')}${list('done')}<p id="moves">{{moves}}</p></div>`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

/** The update calls a page sends from now on. */
function calls(page: Page): Array<{ method: string; params: unknown[] }> {
  const sent: Array<{ method: string; params: unknown[] }> = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/comp/update')) sent.push(...(JSON.parse(request.postData() ?? '{}').calls ?? []))
  })
  return sent
}

const order = (page: Page, id: string) => page.$$eval(`#${id} > li`, (items) => items.map((li) => li.getAttribute('wire:sort:item')).join(''))

test('wire:sort:handle: an item drags only by its handle; wire:sort:group moves it into another list, whose method gets its group id', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/board')
  const sent = calls(page)
  // By the item's body, then by a handle inside wire:sort:ignore: neither starts a drag.
  await page.dragAndDrop('#body-a', '#item-c', { targetPosition: { x: 5, y: 30 } })
  await page.dragAndDrop('#ignored-a', '#item-c', { targetPosition: { x: 5, y: 30 } })
  // By its handle, onto the lower half of the other list's item: it lands after it, in that list.
  await page.dragAndDrop('#handle-a', '#item-c', { targetPosition: { x: 5, y: 30 } })
  await textIs(page, '#moves', 'a1done;')
  t.deepEqual(sent, [{ method: 'move', params: ['a', 1, 'done'] }], 'one call, from the list it was dropped into')
  t.is(await order(page, 'todo'), 'b')
  t.is(await order(page, 'done'), 'ca')
  // And back, after the answer re-rendered both lists.
  await page.dragAndDrop('#handle-c', '#item-b', { targetPosition: { x: 5, y: 2 } })
  await textIs(page, '#moves', 'a1done;c0todo;')
  t.is(await order(page, 'todo'), 'cb')
  t.deepEqual(errors, [])
})
