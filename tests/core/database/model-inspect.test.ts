import { inspect } from 'node:util'
import test from 'ava'
import { Model } from '../../../core/index.ts'

class Article extends Model {
  static table = 'articles'
  static fillable = ['title', 'meta']
  static hidden = ['meta']
  declare meta: unknown
}

test('a model inspects as its class and attributes, hidden ones masked (console.log reaches logs), not as its proxy', (t) => {
  const article = new Article({ title: 'Hi', meta: { tags: ['a'] } })
  t.is(inspect(article), "Article { title: 'Hi', meta: [hidden] }")
  t.deepEqual(article.meta, { tags: ['a'] }, 'read by name, a hidden attribute is there')
  t.is(inspect(article, { showProxy: true }).startsWith('Proxy ['), true, 'showProxy still shows the proxy when asked')
  t.is(inspect(new Article()), 'Article {}')
})

test('models inside arrays and objects inspect the same, and past the depth limit as [Class], where Node shows [Object]', (t) => {
  const articles = [new Article({ title: 'One' }), new Article({ title: 'Two' })]
  t.is(inspect(articles), "[ Article { title: 'One' }, Article { title: 'Two' } ]")
  t.is(inspect({ data: articles }), "{ data: [ Article { title: 'One' }, Article { title: 'Two' } ] }")
  t.is(inspect({ data: articles }, { depth: 1 }), '{ data: [ [Article], [Article] ] }')
  t.is(inspect({ data: [{ title: 'One' }] }, { depth: 1 }), '{ data: [ [Object] ] }', 'as a plain object')
  t.is(inspect([new Article({ title: { deep: { deeper: 1 } } })]), '[ Article { title: { deep: [Object] } } ]')
  t.is(inspect([{ meta: { deep: { deeper: 1 } } }]), '[ { meta: { deep: [Object] } } ]', 'as a plain object')
})
