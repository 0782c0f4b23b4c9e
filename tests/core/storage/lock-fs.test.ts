import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { storeLock } from '../../../core/index.ts'
import { openStore, testLocks, unique } from '../../contracts/lock.contract.ts'

// One folder for every app of this file: apps with separate roots on one machine share the fs store's locks.
const base = mkdtempSync(join(tmpdir(), 'kiln-fs-locks-'))

testLocks('fs', { store: { base }, scope: 'machine', shared: true })

test("fs: locks are files in the store's .kiln-locks folder, never among its keys", async (t) => {
  const store = await openStore(t, { driver: 'fs', base: mkdtempSync(join(tmpdir(), 'kiln-fs-locks-')) })
  const lock = storeLock(store, unique('keys'), { seconds: 30 })
  t.true(await lock.acquire())
  await store.setItem('item', 1)
  t.deepEqual(await store.getKeys(), ['item'])
  t.true(await lock.release())
})

test('fs: an unreadable lock file counts as expired and is taken over', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-fs-locks-'))
  const store = await openStore(t, { driver: 'fs', base: dir })
  const name = unique('garbled')
  const lock = storeLock(store, name, { seconds: 30 })
  t.true(await lock.acquire())
  const [file] = readdirSync(join(dir, '.kiln-locks'))
  writeFileSync(join(dir, '.kiln-locks', file!), 'not json')
  t.true(await storeLock(store, name, { seconds: 30 }).acquire())
  t.false(await lock.isOwned())
})
