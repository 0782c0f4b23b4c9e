import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, update, type PageSnapshot } from './comp-fixtures.ts'
import { featureFiles } from './kernel-files.ts'

/** An app with every feature's test components (feature-files.ts), its database migrated. */
export async function featureApp(t: Parameters<typeof compApp>[0], env: Record<string, string> = {}) {
  const made = await compApp(t, featureFiles, {}, env)
  await refreshDatabase(made.app)
  return made
}

/** One update that must succeed: its JSON answer, or an error with the status and body. */
export async function call(
  client: Awaited<ReturnType<typeof featureApp>>['client'],
  endpoint: string,
  snapshot: PageSnapshot,
  body: Parameters<typeof update>[3],
) {
  const res = await update(client, endpoint, snapshot, body)
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(json)}`)
  return json
}
