import test from 'ava'
import { ComponentTest, testComponent } from '../../../plugins/comp/index.ts'
import { compApp, counterFiles } from './comp-fixtures.ts'
import { kernelFiles } from './kernel-files.ts'

test('testComponent mounts a component on its own and drives it through real updates', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const counter = await testComponent(client, 'counter', { start: 5 })
  t.is(counter.get('count'), 5)
  t.regex(counter.html, /^<div wire:id="[^"]+" wire:name="counter" wire:snapshot="[^"]+" class="counter"><span>5<\/span>/)
  await counter.call('increment')
  await counter.call('add', 10)
  t.is(counter.status, 200)
  t.is(counter.get('count'), 16)
  t.regex(counter.html, /<span>16<\/span>/)
  await counter.set('step', 2)
  await counter.call('increment')
  t.is(counter.data.count, 18)
})

test('refusals are kept, not thrown: status and message, state unchanged', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const counter = await testComponent(client, 'counter')
  await counter.call('mount')
  t.is(counter.status, 403)
  t.regex(counter.message ?? '', /The method "mount" cannot be called on Counter/)
  t.is(counter.get('count'), 0)
  await counter.call('increment')
  t.is(counter.status, 200)
  t.is(counter.message, undefined)
  t.is(counter.get('count'), 1)
})

test('ComponentTest.visit picks a component from a page by name; errors, dispatches and listeners come through', async (t) => {
  const { client } = await compApp(t, kernelFiles)
  const form = await ComponentTest.visit(client, '/page/todo-form', 'todo-form')
  t.regex(form.html, /^<form wire:id=[\s\S]*<\/form>$/)
  await form.set('title', 'ab')
  await form.call('save')
  t.deepEqual(form.errors, { title: ['The title must be at least 3 characters.'] })
  await form.set('title', 'Buy milk')
  await form.call('save')
  t.deepEqual(form.errors, {})
  t.deepEqual(form.get('items'), ['Buy milk'])
  t.deepEqual(form.dispatches, [{ name: 'todo-added', params: { title: 'Buy milk' } }])
  await form.dispatch('clear-all')
  t.deepEqual(form.get('items'), [])
  const error = await t.throwsAsync(() => ComponentTest.visit(client, '/page/todo-form', 'nope'))
  t.regex(error.message, /has no component named "nope"; it has: todo-form/)
})
