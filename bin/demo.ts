/**
 * `npm start`: runs the starter application in `app-template/` with the
 * embedded defaults (SQLite file, filesystem sessions, in-process queue, `log`
 * broadcaster): no database server, no Redis. On first run it writes
 * `app-template/.env` (gitignored) with a fresh APP_KEY, migrates the SQLite
 * database and seeds the demo user.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { generateAppKey } from '../core/index.ts'
import { runCli } from '../core/cli/main.ts'

const root = fileURLToPath(new URL('../app-template/', import.meta.url))
const envFile = `${root}.env`
if (!existsSync(envFile)) copyFileSync(`${root}.env.example`, envFile)
const env = readFileSync(envFile, 'utf8')
if (!/^APP_KEY=\S+/m.test(env)) writeFileSync(envFile, env.replace(/^APP_KEY=.*$/m, `APP_KEY=${generateAppKey()}`))

for (const step of [['migrate'], ['db:seed']]) {
  const code = await runCli(step, { cwd: root })
  if (code !== 0) process.exit(code)
}
const code = await runCli(['serve', ...process.argv.slice(2)], { cwd: root })
if (code !== 0) process.exit(code)
