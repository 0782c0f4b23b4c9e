import test from 'ava'
import { pooledRandomBytes } from '../../../core/security/random-pool.ts'
import { randomId } from '../../../core/session/random-id.ts'

test('pooled random bytes: the length asked for, in a buffer of its own, never the same bytes twice across several refills of the pool', (t) => {
  const seen = new Set<string>()
  const kept: Buffer[] = []
  for (let i = 0; i < 3000; i++) {
    const bytes = pooledRandomBytes(12)
    t.is(bytes.length, 12)
    const hex = bytes.toString('hex')
    t.false(seen.has(hex), 'a 96-bit value came twice')
    seen.add(hex)
    kept.push(bytes)
  }
  // Buffers handed out earlier are the caller's: a refill of the pool does not change them.
  t.is(kept[0]!.toString('hex'), [...seen][0])
  t.is(pooledRandomBytes(5000).length, 5000)
  t.is(pooledRandomBytes(0).length, 0)
})

test('pooled random bytes look uniform: each byte value about as often as any other', (t) => {
  const counts = new Array<number>(256).fill(0)
  for (let i = 0; i < 1000; i++) for (const byte of pooledRandomBytes(256)) counts[byte]!++
  // 1,000 expected per value; a CSPRNG stays far inside ±25%.
  for (const count of counts) t.true(count > 750 && count < 1250, `${count}`)
})

test('session ids stay 40 characters of [A-Za-z0-9], all different', (t) => {
  const ids = new Set<string>()
  for (let i = 0; i < 2000; i++) {
    const id = randomId()
    t.regex(id, /^[A-Za-z0-9]{40}$/)
    ids.add(id)
  }
  t.is(ids.size, 2000)
})
