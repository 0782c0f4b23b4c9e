import test from 'ava'
import { storageSuite } from '../../contracts/storage.contract.ts'

storageSuite(test, { driver: 'fs', base: 'storage/app' })
