import test from 'ava'
import { createApp, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// Issue 27 item 5: form bodies nest as JSON bodies do, through qs with a depth limit.

async function formApp(t: { teardown(fn: () => unknown): void }): Promise<Application> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  app.router.post('/echo', ({ request }) => ({
    name: request.input('user.name'),
    city: request.input('user.address.city'),
    tags: request.input('tags'),
    all: request.all(),
  }))
  return app
}

const form = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body })

test('a urlencoded body nests bracketed keys: user[name]=ada is input("user.name")', async (t) => {
  const app = await formApp(t)
  const response = await app.request('/echo', form('user[name]=ada&user[address][city]=London&tags[]=a&tags[]=b'))
  t.is(response.status, 200)
  const body = (await response.json()) as { name: string; city: string; tags: string[] }
  t.is(body.name, 'ada')
  t.is(body.city, 'London')
  t.deepEqual(body.tags, ['a', 'b'])
})

test('a form and a JSON body with the same shape read the same', async (t) => {
  const app = await formApp(t)
  const fromForm = await (await app.request('/echo', form('user[name]=ada&tags[0]=x&tags[1]=y&plain=1'))).json()
  const fromJson = await (
    await app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ user: { name: 'ada' }, tags: ['x', 'y'], plain: '1' }),
    })
  ).json()
  t.deepEqual(fromForm, fromJson)
})

test('repeated keys still make a list', async (t) => {
  const app = await formApp(t)
  const body = (await (await app.request('/echo', form('tags=a&tags=b&tags=c'))).json()) as { tags: string[] }
  t.deepEqual(body.tags, ['a', 'b', 'c'])
})

test('multipart fields nest too', async (t) => {
  const app = await formApp(t)
  const data = new FormData()
  data.append('user[name]', 'ada')
  data.append('user[address][city]', 'Paris')
  data.append('tags[]', 'a')
  data.append('tags[]', 'b')
  const response = await app.request('/echo', { method: 'POST', headers: { accept: 'application/json' }, body: data })
  const body = (await response.json()) as { name: string; city: string; tags: string[] }
  t.deepEqual([body.name, body.city, body.tags], ['ada', 'Paris', ['a', 'b']])
})

test('__proto__, constructor and prototype anywhere in a form key are 400', async (t) => {
  const app = await formApp(t)
  for (const key of ['__proto__[admin]', 'user[__proto__][admin]', 'user[constructor][prototype][admin]', 'a.prototype', 'constructor']) {
    const response = await app.request('/echo', form(`${encodeURIComponent(key)}=1`))
    t.is(response.status, 400, key)
    t.regex(((await response.json()) as { message: string }).message, /not allowed/)
  }
  t.is(({} as Record<string, unknown>).admin, undefined)
})

test('keys nested deeper than the limit, and list indexes past the field limit, are 400, not a 500 or a huge array', async (t) => {
  const app = await formApp(t)
  const deep = await app.request('/echo', form('a[b][c][d][e][f][g]=1'))
  t.is(deep.status, 400)
  t.regex(((await deep.json()) as { message: string }).message, /nests at most 5/)
  const far = await app.request('/echo', form('a[99999999]=1'))
  t.is(far.status, 400)
  const many = await app.request('/echo', form(Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')))
  t.is(many.status, 400)
})
