import test from 'ava'
import { modelSuite } from './database-suite.ts'

modelSuite(test, 'pgsql')
