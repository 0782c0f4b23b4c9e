import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test from 'ava'

const BIN = fileURLToPath(new URL('../../bin/kiln.js', import.meta.url))
const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

test('the starter has a schedule: `kiln schedule:list` (the real bin) shows its example task and when it runs next', async (t) => {
  // APP_ENV=test: the starter has no .env (no APP_KEY) until `kiln new` writes one.
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'schedule:list', '--time=2026-11-27T13:01:00Z'], {
    cwd: root,
    env: { ...process.env, APP_ENV: 'test', TZ: 'UTC', NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  t.regex(stdout, /^CRON\s+TASK\s+NEXT RUN\s+ZONE\s+FLAGS$/m)
  t.regex(stdout, /^30 3 \* \* \*\s+kiln tok:prune-expired --hours=24\s+2026-11-28T03:30:00\.000Z\s+local/m)
})
