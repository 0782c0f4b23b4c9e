import test from 'ava'
import pg from 'pg'
import { runWithApp } from '../../../core/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

// Counted, not timed (issue 25, P1): a row of a token and its user has five timestamps, mostly the same texts request
// after request, and pg's parser runs several regular expressions on each.

test.serial('pgsql: a timestamp text is parsed once per connection, and every read still gets a Date of its own', async (t) => {
  const original = pg.types.getTypeParser(1114, 'text')
  let parsed = 0
  // Set before the connection opens, so it stands in for pg's own parser.
  pg.types.setTypeParser(1114, (text: string) => {
    parsed++
    return (original as (text: string) => unknown)(text)
  })
  t.teardown(() => pg.types.setTypeParser(1114, original))
  const app = await databaseApp(t, 'pgsql')
  await runWithApp(app, async () => {
    const ada = await Author.create({ name: 'Ada' })
    const first = (await Author.find(ada.id))!
    parsed = 0
    const second = (await Author.find(ada.id))!
    const third = (await Author.find(ada.id))!
    t.is(parsed, 0, 'the texts were parsed by the first read')
    const [a, b] = [second.getAttribute<Date>('created_at'), third.getAttribute<Date>('created_at')]
    t.not(a, b)
    t.is(a.getTime(), first.getAttribute<Date>('created_at').getTime())
    a.setFullYear(2000)
    t.is(b.getTime(), first.getAttribute<Date>('created_at').getTime(), 'changing one read’s date leaves the next ones alone')
    t.is((await Author.find(ada.id))!.getAttribute<Date>('created_at').getTime(), b.getTime())
  })
})
