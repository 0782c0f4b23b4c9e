import { testSessionStore } from '../../contracts/session-store.contract.ts'

testSessionStore('fs')
