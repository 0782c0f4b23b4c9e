import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, pageFiles, update, type PageSnapshot } from './comp-fixtures.ts'

/**
 * An app with a feature's test components (its `<name>.fixtures.ts`), each shown at `/page/<name>`, and its database
 * migrated.
 *
 * @example
 * const { client } = await featureApp(t, islandsFiles)
 * const { snapshot, endpoint } = await page(client, '/page/dashboard')
 */
export async function featureApp(t: Parameters<typeof compApp>[0], files: Record<string, string>, env: Record<string, string> = {}) {
  const made = await compApp(t, { ...pageFiles, ...files }, {}, env)
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
