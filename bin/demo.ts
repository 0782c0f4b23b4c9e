/**
 * `npm start`: runs the starter application in `app-template/` with the
 * embedded defaults (SQLite file, filesystem sessions, in-process queue, `log`
 * broadcaster): no database server, no Redis. On first run it writes
 * `app-template/.env` (gitignored) for local work (a fresh APP_KEY, APP_DEBUG=true), migrates the SQLite
 * database and seeds the demo user.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { localEnv } from '../core/cli/local-env.ts'
import { runCli } from '../core/cli/main.ts'

const root = fileURLToPath(new URL('../app-template/', import.meta.url))
const envFile = `${root}.env`
if (!existsSync(envFile)) writeFileSync(envFile, localEnv(readFileSync(`${root}.env.example`, 'utf8')))
else if (!/^APP_KEY=\S+/m.test(readFileSync(envFile, 'utf8'))) writeFileSync(envFile, localEnv(readFileSync(envFile, 'utf8')))

for (const step of [['migrate'], ['db:seed']]) {
  const code = await runCli(step, { cwd: root })
  if (code !== 0) process.exit(code)
}
const code = await runCli(['serve', ...process.argv.slice(2)], { cwd: root })
if (code !== 0) process.exit(code)
