import test from 'ava'
import { sessionSuite } from './session-contract.ts'

sessionSuite(test, 'fs')
