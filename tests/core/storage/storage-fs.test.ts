import { testStorage } from '../../contracts/storage.contract.ts'

testStorage('fs', { base: 'storage/app' })
