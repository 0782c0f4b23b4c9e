import test from 'ava'
import { sessionSuite } from '../../contracts/session-store.contract.ts'

sessionSuite(test, 'memory')
