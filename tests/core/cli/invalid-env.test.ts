import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, lines, STACK_FRAME } from './cli-harness.ts'

/** An app whose env.ts declares SESSION_DRIVER, with the name misspelt in its .env (as in a deploy gone wrong). */
function misspeltEnvApp(): string {
  return tempApp({
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'env.ts': [
      "import { defineEnv } from 'kiln-framework'",
      "import { z } from 'zod'",
      "export default defineEnv({ SESSION_DRIVER: z.enum(['memory', 'fs', 'redis']).default('fs'), PORT: z.coerce.number().int().default(3000) })",
      '',
    ].join('\n'),
    '.env': 'SESION_DRIVER=fs\n',
  })
}

for (const argv of [['migrate'], ['serve', '--port=0'], ['route:list']]) {
  test(`kiln ${argv[0]} with a misspelt variable in .env: the variable and its did-you-mean are printed without --verbose, exit 1, no stack`, async (t) => {
    const root = misspeltEnvApp()
    const result = await bin(argv, root, { APP_KEY: `base64:${Buffer.alloc(32, 1).toString('base64')}` })
    t.is(result.code, 1, result.stderr)
    t.is(result.stdout, '')
    t.regex(result.stderr, /did not boot: Invalid environment \(env\.ts\):\n/)
    t.regex(result.stderr, /^ +SESION_DRIVER in \.env is not declared in env\.ts: did you mean SESSION_DRIVER\?$/m)
    t.regex(result.stderr, /Set the variables in \.env or the environment/)
    t.notRegex(result.stderr, STACK_FRAME)
    t.true(lines(result.stderr).length <= 4, result.stderr)
  })
}

test('a value of the wrong type is named with its reason, never with its value', async (t) => {
  const root = misspeltEnvApp()
  const result = await bin(['route:list'], root, { PORT: 'secret-looking-value', SESION_DRIVER: '' })
  t.is(result.code, 1, result.stderr)
  t.regex(result.stderr, /^ +PORT: /m)
  t.notRegex(result.stderr, /secret-looking-value/)
})
