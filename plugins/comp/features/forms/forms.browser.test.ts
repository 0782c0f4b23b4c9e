import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

const files = {
  'app/forms/post-form.ts': `import { Form, validate } from 'kiln-framework/comp'
import { z } from 'zod'
export class PostForm extends Form {
  @validate(z.string().trim().min(3, 'The title needs 3 characters.')) title = ''
  @validate(z.string().max(10), { as: 'body text' }) body = ''
}
`,
  'app/components/new-post.ts': `import { Component } from 'kiln-framework/comp'
import { PostForm } from '../forms/post-form.ts'
export default class NewPost extends Component {
  form = new PostForm()
  posts: string[] = []
  save() {
    const { title, body } = this.form.validate()
    this.posts.push(title + (body ? ' / ' + body : ''))
    this.form.reset()
  }
}
`,
  'resources/views/components/new-post.hbs': `<form wire:submit="save">
  <input id="title" wire:model.live="form.title">
  <input id="body" wire:model="form.body">
  <p id="live-error" x-text="$errors.first('form.title')"></p>
  {{#error "form.title"}}<p id="title-error">{{message}}</p>{{/error}}
  {{#error "form.body"}}<p id="body-error">{{message}}</p>{{/error}}
  <button id="save" type="submit">Save</button>
  <ul id="posts">{{#each posts}}<li>{{this}}</li>{{/each}}</ul>
</form>`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('a form object bound with wire:model="form.title": checked as you type, errors under form.title, saved by an action and reset', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/new-post')
  const sent: Array<{ updates: Array<[string, unknown]> }> = []
  page.on('request', (request) => request.method() === 'POST' && request.url().includes('/comp/update') && sent.push(JSON.parse(request.postData() ?? '{}')))

  await page.fill('#title', 'ab')
  await textIs(page, '#title-error', 'The title needs 3 characters.')
  await textIs(page, '#live-error', 'The title needs 3 characters.')
  t.true(
    sent.some((body) => body.updates.some(([path, value]) => path === 'form.title' && value === 'ab')),
    'the browser sends the nested path',
  )
  t.is(await page.inputValue('#title'), 'ab', 'the value stays as typed')

  await page.fill('#title', 'Hello')
  await page.waitForFunction(() => document.getElementById('title-error') === null)
  await textIs(page, '#live-error', '')

  await page.fill('#body', 'far too long for it')
  await page.click('#save')
  await textIs(page, '#body-error', 'The body text field must not have more than 10 characters.')
  t.is(await page.locator('#posts li').count(), 0, 'save() stopped at validate()')

  await page.fill('#body', 'short')
  await page.click('#save')
  await textIs(page, '#posts', 'Hello / short')
  await page.waitForFunction(() => document.getElementById('body-error') === null)
  t.is(await page.inputValue('#title'), '', 'reset() cleared the bound inputs')
  t.is(await page.inputValue('#body'), '')
  t.deepEqual(errors, [])
})
