import test from 'ava'
import { createStorage } from 'unstorage'
import { storeLock, lockScope } from '../../../core/index.ts'
import { openStore, testLocks, unique } from '../../contracts/lock.contract.ts'

testLocks('memory', { scope: 'process', shared: false })

test('memory: two stores keep their own locks; a store without locks is refused with E_LOCK_UNSUPPORTED', async (t) => {
  const name = unique('apart')
  t.true(await storeLock(await openStore(t, { driver: 'memory' }), name, { seconds: 30 }).acquire())
  t.true(await storeLock(await openStore(t, { driver: 'memory' }), name, { seconds: 30 }).acquire())
  const bare = createStorage()
  t.is(lockScope(bare), undefined)
  t.like(
    t.throws(() => storeLock(bare, name, { seconds: 30 })),
    { code: 'E_LOCK_UNSUPPORTED' },
  )
})
