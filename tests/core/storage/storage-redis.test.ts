import { randomBytes } from 'node:crypto'
import { testStorage } from '../../contracts/storage.contract.ts'

testStorage('redis', { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: `kiln-test-storage-${randomBytes(4).toString('hex')}` })
