import { randomBytes } from 'node:crypto'
import test from 'ava'
import { sessionSuite } from './session-contract.ts'

sessionSuite(test, 'redis', {
  stores: { redis: { driver: 'redis', url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: `kiln-test-${randomBytes(4).toString('hex')}` } },
})
