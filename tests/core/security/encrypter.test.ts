import { randomBytes } from 'node:crypto'
import test from 'ava'
import { Encrypter } from '../../../core/index.ts'

test('a value opened once opens again the same, and only for the associated data it was sealed with', (t) => {
  const encrypter = new Encrypter(randomBytes(32))
  const sealed = encrypter.encrypt('session-id-1', 'cookie:session')
  t.is(encrypter.decrypt(sealed, 'cookie:session'), 'session-id-1')
  t.is(encrypter.decrypt(sealed, 'cookie:session'), 'session-id-1')
  // Remembering an opened value must not let it open under another name.
  t.is(encrypter.decrypt(sealed, 'cookie:remember'), undefined)
})

test('tampering is refused every time, also after the untampered value was opened', (t) => {
  const encrypter = new Encrypter(randomBytes(32))
  const sealed = encrypter.encrypt('42', 'cookie:a')
  t.is(encrypter.decrypt(sealed, 'cookie:a'), '42')
  const bytes = Buffer.from(sealed, 'base64url')
  bytes[bytes.length - 1]! ^= 1
  const tampered = bytes.toString('base64url')
  t.is(encrypter.decrypt(tampered, 'cookie:a'), undefined)
  t.is(encrypter.decrypt(tampered, 'cookie:a'), undefined)
})

test('a value sealed with a previous key opens; one sealed with an unknown key does not, however many values were opened before', (t) => {
  const old = randomBytes(32)
  const current = new Encrypter(randomBytes(32), [old])
  const before = new Encrypter(old).encrypt('x', 'cookie:a')
  t.is(current.decrypt(before, 'cookie:a'), 'x')
  for (let i = 0; i < 5000; i++) current.decrypt(current.encrypt(`v${i}`, 'cookie:a'), 'cookie:a')
  t.is(current.decrypt(before, 'cookie:a'), 'x')
  t.is(current.decrypt(new Encrypter(randomBytes(32)).encrypt('x', 'cookie:a'), 'cookie:a'), undefined)
})
