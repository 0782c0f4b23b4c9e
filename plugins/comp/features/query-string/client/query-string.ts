import { onEffect } from '../../../client/effects.ts'

// Keeps the address bar's query string in step with the component: `null` drops a key.
onEffect<Record<string, unknown>>('queryString', (_component, values) => {
  const url = new URL(location.href)
  for (const [key, value] of Object.entries(values)) {
    url.searchParams.delete(key)
    if (value === null || value === undefined || value === '') continue
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item))
    else url.searchParams.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  if (url.href !== location.href) history.replaceState(history.state, '', url)
})
