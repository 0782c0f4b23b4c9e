import test from 'ava'
import type { Response as PageResponse } from 'playwright-core'
import { browserApp, textIs } from './browser-app.ts'

// A component whose page and update responses are well over the 1 KB compression threshold.
const files = {
  'app/components/catalog.ts': `import { Component } from 'kiln-framework/comp'
export default class Catalog extends Component {
  round = 0
  items = Array.from({ length: 60 }, (_, i) => 'product number ' + i)
  next() { this.round++ }
}
`,
  'resources/views/components/catalog.hbs': `<div>
  <span id="round">{{round}}</span> <button id="next" wire:click="next">next</button>
  <ul>{{#each items}}<li>{{this}} (round {{../round}})</li>{{/each}}</ul>
</div>`,
}

test('the page, comp.js, Alpine and component updates reach Chromium compressed (brotli or gzip)', async (t) => {
  const env = await browserApp(files)
  t.teardown(() => env.close())
  const { page, open, errors } = await env.newPage(t)
  const responses: PageResponse[] = []
  page.on('response', (response) => responses.push(response))
  await open('/c/catalog')
  await page.click('#next')
  await textIs(page, '#round', '1')

  const encodingOf = async (match: (path: string, method: string) => boolean): Promise<string | undefined> => {
    const response = responses.find((r) => match(new URL(r.url()).pathname, r.request().method()))
    t.truthy(response, 'the browser loaded it')
    return (await response!.allHeaders())['content-encoding']
  }
  t.regex((await encodingOf((path) => path === '/c/catalog')) ?? 'none', /^(br|gzip)$/, 'the HTML document')
  t.regex((await encodingOf((path) => path === '/comp/comp.js')) ?? 'none', /^(br|gzip)$/, 'comp.js')
  t.regex((await encodingOf((path) => path === '/comp/alpine.js')) ?? 'none', /^(br|gzip)$/, 'Alpine')
  t.regex((await encodingOf((_path, method) => method === 'POST')) ?? 'none', /^(br|gzip)$/, 'the update response')
  t.deepEqual(errors, [])
})
