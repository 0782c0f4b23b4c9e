import { testDatabase } from '../../contracts/database.contract.ts'

testDatabase('sqlite')
