import test from 'ava'
import { z } from 'zod'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

async function validatingApp(t: { teardown(fn: () => unknown): void }) {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  const taken = new Set(['taken@example.com'])
  const schema = z.object({
    title: z.string().min(3, 'The title must be at least 3 characters.'),
    email: z.email().refine(async (email) => !taken.has(email), 'The email has already been taken.'),
    tags: z.array(z.string()).default([]),
    page: z.coerce.number().int().positive().default(1),
  })
  app.router.post('/posts', async ({ request }) => {
    const data = await request.validate(schema)
    return { title: data.title.toUpperCase(), email: data.email, tags: data.tags, page: data.page }
  })
  app.router.post('/avatar', async ({ request }) => {
    const { avatar } = await request.validate(
      z.object({ avatar: z.instanceof(File).refine((f) => f.size <= 10, 'The avatar may not be larger than 10 bytes.') }),
    )
    return { name: avatar.name, size: avatar.size }
  })
  return app
}

test('request.validate returns the typed data: body, query and defaults', async (t) => {
  const app = await validatingApp(t)
  const res = await app.request('/posts?page=3', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'hello', email: 'new@example.com' }),
  })
  t.is(res.status, 200)
  t.deepEqual(await res.json(), { title: 'HELLO', email: 'new@example.com', tags: [], page: 3 })
})

test('request.validate: invalid input is 422 with errors per field, async refinements included', async (t) => {
  const app = await validatingApp(t)
  const res = await app.request('/posts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ title: 'hi', email: 'taken@example.com' }),
  })
  t.is(res.status, 422)
  const body = await res.json()
  t.is(body.message, 'The title must be at least 3 characters.')
  t.deepEqual(body.errors, { title: ['The title must be at least 3 characters.'], email: ['The email has already been taken.'] })
})

test('request.validate sees uploaded files', async (t) => {
  const app = await validatingApp(t)
  const small = new FormData()
  small.append('avatar', new Blob(['12345']), 'me.png')
  t.deepEqual(await (await app.request('/avatar', { method: 'POST', body: small })).json(), { name: 'me.png', size: 5 })
  const big = new FormData()
  big.append('avatar', new Blob(['x'.repeat(50)]), 'big.png')
  const res = await app.request('/avatar', { method: 'POST', body: big, headers: { accept: 'application/json' } })
  t.is(res.status, 422)
  t.deepEqual((await res.json()).errors, { avatar: ['The avatar may not be larger than 10 bytes.'] })
})
