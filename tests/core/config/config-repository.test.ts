import test from 'ava'
import { z } from 'zod'
import { ConfigRepository } from '../../../core/config/config-repository.ts'

test('a read value follows set, define and values added in place later', (t) => {
  const config = new ConfigRepository({ tok: { cache: { ttl: 10 } }, app: { name: 'Shop' } })
  t.is(config.get('tok.cache.ttl'), 10)
  t.is(config.get('tok.cache.ttl'), 10)
  config.set('tok.cache.ttl', 20)
  t.is(config.get('tok.cache.ttl'), 20)
  t.deepEqual(config.get('tok'), { cache: { ttl: 20 } })
  config.define('app', z.object({ name: z.string(), debug: z.boolean().default(false) }))
  t.is(config.get('app.debug'), false)
  // Missing, then added in place by a plugin that holds the object.
  t.is(config.get('tok.cache.redis', 'none'), 'none')
  config.get<Record<string, Record<string, unknown>>>('tok').cache!.redis = 'redis://127.0.0.1:6379'
  t.is(config.get('tok.cache.redis'), 'redis://127.0.0.1:6379')
  t.is(config.get('tok.nope.deeper'), undefined)
  t.is(config.get('__proto__'), undefined)
})
