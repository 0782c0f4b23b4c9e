import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createTestApp } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const appConfig = fileURLToPath(new URL('../../../app-template/config/app.ts', import.meta.url))

test('a local .env with APP_DEBUG=true (what npm start and kiln new write) does not turn debug on in tests; env can', async (t) => {
  const root = tempApp({
    '.env': 'APP_DEBUG=true\nAPP_NAME=Local\n',
    'config/app.ts': `export { default } from ${JSON.stringify(appConfig)}\n`,
  })
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  t.false(app.config.get('app.debug'))
  t.is(app.config.get('app.name'), 'Local', 'the rest of the .env is still read')
  const debug = await createTestApp({ root, env: { APP_DEBUG: 'true' } })
  t.teardown(() => debug.close())
  t.true(debug.config.get('app.debug'))
})
