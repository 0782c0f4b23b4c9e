import test from 'ava'
import { modelSuite } from '../../contracts/database.contract.ts'

modelSuite(test, 'pgsql')
