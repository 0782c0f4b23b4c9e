import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'
import { cli } from './cli-harness.ts'

// The sorted list of command names is only read to word an error or a listing: the first sort by localeCompare loads
// ICU's collator, some 5 ms of every start (`kiln serve` included; issue 25, P6).
test.serial('a command that runs does not sort the command names; a stray argument still names the command meant', async (t) => {
  const root = tempApp({
    'config/app.ts': "export default { name: 'names' }\n",
    'routes/web.ts': "export default (Route) => Route.get('/', () => 'hi')\n",
  })
  const original = String.prototype.localeCompare
  let sorts = 0
  String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof original>) {
    sorts++
    return original.apply(this, args)
  }
  try {
    const listed = await cli(['route:list', '--json'], root)
    t.is(listed.code, 0, listed.stderr)
    t.is(sorts, 0, 'no localeCompare while running a command')
    const stray = await cli(['migrate', 'fresh'], root)
    t.is(stray.code, 1)
    t.regex(stray.stderr, /"migrate" takes no arguments, got "fresh"\. Did you mean "migrate:fresh"\?/)
  } finally {
    String.prototype.localeCompare = original
  }
})
