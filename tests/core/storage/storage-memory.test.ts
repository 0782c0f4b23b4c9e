import { testStorage } from '../../contracts/storage.contract.ts'

testStorage('memory')
