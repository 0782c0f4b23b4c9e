import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

test('the file channel writes JSON lines and redacts secrets at any depth', async (t) => {
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    config: { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/test.log' } } },
  })
  app.logger.info(
    {
      user: 1,
      headers: { authorization: 'Bearer 1|secret', cookie: 'kiln_session=abc' },
      body: { password: 'hunter2', token: 't0k', nested: { secret: 's' } },
    },
    'hello',
  )
  app.logger.warn('plain')
  await app.close()
  const lines = readFileSync(join(root, 'storage/logs/test.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  t.is(lines.length, 2)
  t.is(lines[0].msg, 'hello')
  t.is(lines[0].user, 1)
  t.is(lines[0].headers.authorization, '[redacted]')
  t.is(lines[0].headers.cookie, '[redacted]')
  t.is(lines[0].body.password, '[redacted]')
  t.is(lines[0].body.token, '[redacted]')
  t.is(lines[0].body.nested.secret, '[redacted]')
  const raw = readFileSync(join(root, 'storage/logs/test.log'), 'utf8')
  for (const secret of ['hunter2', '1|secret', 't0k', 'kiln_session=abc']) t.false(raw.includes(secret), secret)
})

test('an unhandled error is logged, becomes a 500, and the app keeps serving', async (t) => {
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    config: { logging: { level: 'error', channels: ['file'], file: { path: 'storage/logs/err.log' } } },
  })
  app.router.get('/boom', () => {
    throw new Error('database on fire')
  })
  app.router.get('/ok', () => 'ok')
  t.is((await app.request('/boom', { headers: { authorization: 'Bearer 9|leak' } })).status, 500)
  t.is(await (await app.request('/ok')).text(), 'ok')
  await app.close()
  const raw = readFileSync(join(root, 'storage/logs/err.log'), 'utf8')
  t.regex(raw, /database on fire/)
  t.false(raw.includes('9|leak'))
})
