import test from 'ava'
import { storageSuite } from './storage-contract.ts'

storageSuite(test, { driver: 'fs', base: 'storage/app' })
