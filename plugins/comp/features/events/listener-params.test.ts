import test from 'ava'
import { transform } from 'esbuild'
import { listenerArguments, parameterNames } from './listener-params.ts'

test('parameter names are read past defaults holding commas, brackets, strings, comments and arrows', (t) => {
  const source = `class X {
    async hear(title /* the title, (really) */, done = ')', list = [1, [2, 3]], pick = (a, b) => ({ a, b }), text = \`\${'x,y'}\`, last) {}
  }`
  const X = new Function(`return ${source}`)() as { prototype: { hear: Function } }
  t.deepEqual(parameterNames(X.prototype.hear), ['title', 'done', 'list', 'pick', 'text', 'last'])
})

test('TypeScript compiled by esbuild (as tsx runs components) keeps the names; destructuring and rest fall back to the whole object', async (t) => {
  const { code } = await transform(
    `export class X {
      named(title: string, priority: number = 2) {}
      whole({ title }: { title: string }) {}
      rest(...all: unknown[]) {}
      one(data: { title: string }) {}
    }`,
    { loader: 'ts', format: 'cjs', target: 'es2022' },
  )
  const module = { exports: {} as { X: { prototype: Record<string, Function> } } }
  new Function('module', 'exports', code)(module, module.exports)
  const proto = module.exports.X.prototype
  const data = { title: 'Milk', priority: 3 }
  t.deepEqual(listenerArguments(proto.named!, data), ['Milk', 3])
  t.deepEqual(listenerArguments(proto.named!, { title: 'Eggs' }), ['Eggs', undefined], 'a missing key leaves the default to apply')
  t.deepEqual(listenerArguments(proto.whole!, data), [data])
  t.deepEqual(listenerArguments(proto.rest!, data), [data])
  t.deepEqual(listenerArguments(proto.one!, data), [data], 'one parameter not named by the data: the whole object')
  t.deepEqual(listenerArguments(proto.named!.bind(null), data), [data], 'a bound function has no readable names')
})

test('prototype keys never become parameters', (t) => {
  const data = JSON.parse('{"__proto__": "x", "constructor": "y", "title": "z"}') as Record<string, unknown>
  const fn = new Function('__proto__', 'title', 'return [__proto__, title]')
  t.deepEqual(listenerArguments(fn, data), [undefined, 'z'])
  t.deepEqual(listenerArguments(new Function('constructor', ''), data), [data])
})
