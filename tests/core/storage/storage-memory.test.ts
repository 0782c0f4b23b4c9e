import test from 'ava'
import { storageSuite } from '../../contracts/storage.contract.ts'

storageSuite(test, { driver: 'memory' })
