import test from 'ava'
import { createApp, redirect, view, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const files = {
  'resources/views/layouts/plain.hbs': '<main>{{body}}</main>',
  'resources/views/page.hbs': '{{!< layouts/plain}}\n<b>{{title}}</b>',
  'resources/views/form.hbs': [
    '<form method="post">{{csrfField}}',
    '<input name="title" value="{{old "title" "draft"}}" class="{{class "input" invalid=(error "title")}}">',
    '{{#error "title"}}<p class="error">{{message}}</p>{{else}}<p class="ok">fine</p>{{/error}}',
    '</form>',
  ].join(''),
}

async function makeApp(t: { teardown(fn: () => unknown): void }): Promise<Application> {
  const app = await createApp({ root: tempApp(files), env: { APP_ENV: 'test' }, config: { session: { driver: 'memory' } } })
  t.teardown(() => app.close())
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/form', () => view('form'))
    app.router.post('/form', ({ request, session }) => {
      const title = String(request.input('title') ?? '')
      if (title.length < 3) {
        session!.flash('errors', { title: [`"${title}" is too short <b>!</b>`] })
        session!.flashInput(request.all())
      }
      return redirect('/form')
    })
  })
  return app
}

const render = (app: Application, source: string, data: Record<string, unknown> = {}) => app.views.renderInline(source, data)

test('eq, ne, gt, gte, lt, lte compare strictly, inline and as subexpressions', async (t) => {
  const app = await makeApp(t)
  const data = { count: 5, status: 'done', one: '1' }
  t.is(await render(app, '{{eq status "done"}} {{ne status "done"}} {{eq one 1}}', data), 'true false false')
  t.is(
    await render(app, '{{gt count 3}} {{gt count 5}} {{gte count 5}} {{lt count 5}} {{lte count 5}} {{lt count 9}}', data),
    'true false true false true true',
  )
  t.is(await render(app, '{{#if (gt count 3)}}many{{else}}few{{/if}}', data), 'many')
  t.is(await render(app, '{{#if (gt count 3)}}many{{else}}few{{/if}}', { count: 2 }), 'few')
})

test('and, or, not follow {{#if}}: 0, "" and [] are false; and/or return a value, so or gives a fallback', async (t) => {
  const app = await makeApp(t)
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['{{#if (and (gt count 3) (not done))}}yes{{else}}no{{/if}}', { count: 4, done: false }, 'yes'],
    ['{{#if (and (gt count 3) (not done))}}yes{{else}}no{{/if}}', { count: 4, done: true }, 'no'],
    ['{{#if (and items done)}}yes{{else}}no{{/if}}', { items: [], done: true }, 'no'],
    ['{{#if (or items zero)}}yes{{else}}no{{/if}}', { items: [], zero: 0 }, 'no'],
    ['{{#if (or a b c)}}yes{{else}}no{{/if}}', { a: '', b: 0, c: 'x' }, 'yes'],
    ['{{or nickname name}}', { nickname: '', name: '<Ada>' }, '&lt;Ada&gt;'],
    ['{{and first second}}', { first: 'a', second: 'b' }, 'b'],
    ['{{not items}} {{not 0}} {{not "x"}}', { items: [] }, 'true true false'],
  ]
  for (const [source, data, expected] of cases) t.is(await render(app, source, data), expected, source)
})

test('a wrong number of values is a clear error, not a quiet false', async (t) => {
  const app = await makeApp(t)
  await t.throwsAsync(render(app, '{{#if (gt count)}}x{{/if}}', { count: 1 }), { message: /\{\{gt\}\} takes 2 value\(s\), got 1/ })
  await t.throwsAsync(render(app, '{{not a b}}', {}), { message: /\{\{not\}\} takes 1 value/ })
  await t.throwsAsync(render(app, '{{and a}}', {}), { message: /\{\{and\}\} takes 2 or more/ })
})

test('class builds a class list from strings, name=condition pairs, (hash ...), arrays and objects, once each', async (t) => {
  const app = await makeApp(t)
  const data = { isActive: true, danger: false, extra: ['w-1/2', null, 'btn'], toggles: { 'p-0.5': true, hidden: 0 } }
  t.is(await render(app, '<b class="{{class "btn  btn-lg" active=isActive btn-danger=danger}}">', data), '<b class="btn btn-lg active">')
  t.is(await render(app, '{{class "btn" (hash active=isActive btn-danger=danger) extra toggles}}', data), 'btn active w-1/2 p-0.5')
  t.is(await render(app, '{{class btn=true md:flex=isActive}}', data), 'btn md:flex')
  t.is(await render(app, '[{{class none=false}}]', data), '[]')
})

test('class output is escaped attribute text, in double and triple braces alike (no attribute break-out)', async (t) => {
  const app = await makeApp(t)
  const data = { evil: '"><script>alert(1)</script>', keys: { '" onmouseover="x': true } }
  const expected = '<b class="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot; onmouseover&#x3D;&quot;x">'
  t.is(await render(app, '<b class="{{class evil keys}}">', data), expected)
  t.is(await render(app, '<b class="{{{class evil keys}}}">', data), expected)
})

test('each gives @iteration, @count, @remaining, @even, @odd besides @index, @first, @last', async (t) => {
  const app = await makeApp(t)
  const source =
    '{{#each items}}[{{@index}}{{@iteration}}/{{@count}} r{{@remaining}} {{#if @first}}F{{/if}}{{#if @last}}L{{/if}}{{#if @odd}}o{{/if}}{{#if @even}}e{{/if}} {{this}}]{{/each}}'
  t.is(await render(app, source, { items: ['a', 'b', 'c'] }), '[01/3 r2 Fo a][12/3 r1 e b][23/3 r0 Lo c]')
})

test('each keeps its behaviour: objects with @key, {{else}}, block parameters, Maps and Sets, functions', async (t) => {
  const app = await makeApp(t)
  t.is(await render(app, '{{#each o}}{{@key}}={{this}}({{@iteration}}/{{@count}}){{/each}}', { o: { x: 1, y: 2 } }), 'x=1(1/2)y=2(2/2)')
  t.is(await render(app, '{{#each items}}x{{else}}empty{{/each}}', { items: [] }), 'empty')
  t.is(await render(app, '{{#each o}}x{{else}}empty{{/each}}', { o: {} }), 'empty')
  t.is(
    await render(app, '{{#each items as |item i|}}{{i}}:{{item.name}}{{#if @last}}.{{else}},{{/if}}{{/each}}', { items: [{ name: 'a' }, { name: 'b' }] }),
    '0:a,1:b.',
  )
  t.is(await render(app, '{{#each s}}{{this}}{{@remaining}}{{/each}}', { s: new Set(['p', 'q']) }), 'p1q0')
  t.is(
    await render(app, '{{#each m as |pair|}}{{lookup pair 0}}{{#if @last}}!{{/if}}{{/each}}', {
      m: new Map([
        ['k', 1],
        ['j', 2],
      ]),
    }),
    'kj!',
  )
  // A block that is not an each keeps the loop's data, as Handlebars does.
  t.is(await render(app, '{{#each items}}{{#if true}}{{@iteration}}{{/if}}{{/each}}', { items: [1, 2] }), '12')
})

test('nested each: @depth counts the loops, @parent is the data of the loop around', async (t) => {
  const app = await makeApp(t)
  const source =
    '{{@depth}}|{{#each rows}}{{#each this}}{{@parent.iteration}}.{{@iteration}}d{{@depth}} {{/each}}d{{@depth}}{{#unless @parent}}-{{/unless}}; {{/each}}|{{#each rows}}{{@depth}}{{/each}}'
  t.is(await render(app, source, { rows: [['a', 'b'], ['c']] }), '|1.1d2 1.2d2 d1-; 2.1d2 d1-; |11')
})

test('HTML helpers print with double braces; the layout body is HTML, so {{body}} prints it as is', async (t) => {
  const app = await makeApp(t)
  t.is(await app.views.render('page', { title: '<i>' }), '<main><b>&lt;i&gt;</b></main>')
  const html = await render(app, '{{csrfField}}|{{{csrfField}}}', { csrfToken: 'tok"en' })
  t.is(html, '<input type="hidden" name="_token" value="tok&quot;en">|<input type="hidden" name="_token" value="tok&quot;en">')
  // json is text for a script or an attribute: escaped in double braces, as before.
  t.is(await render(app, '<b x-data="{{json v}}">', { v: { a: '"' } }), '<b x-data="{&quot;a&quot;:&quot;\\&quot;&quot;}">')
})

test('error, inline and as a block, reads the errors in the view data; the message is escaped', async (t) => {
  const app = await makeApp(t)
  const source = '{{error "title"}}|{{#error "title"}}<p>{{message}} {{name}}</p>{{else}}none{{/error}}|{{#error "title" as |m|}}{{m}}{{/error}}'
  t.is(
    await render(app, source, { name: 'Ada', errors: { title: ['<b>Too short</b>', 'second'] } }),
    '&lt;b&gt;Too short&lt;/b&gt;|<p>&lt;b&gt;Too short&lt;/b&gt; Ada</p>|&lt;b&gt;Too short&lt;/b&gt;',
  )
  t.is(await render(app, source, { errors: { other: ['x'] } }), '|none|')
  t.is(await render(app, source, {}), '|none|')
  t.is(await render(app, '{{#error "__proto__"}}x{{else}}-{{/error}}{{#error "constructor"}}x{{else}}-{{/error}}', { errors: {} }), '--')
  t.is(await render(app, '{{#each items}}{{#error "title"}}{{@index}}{{message}}{{/error}}{{/each}}', { items: [1], errors: { title: ['m'] } }), '0m')
})

test('in a web view, error and old read the errors and input flashed by the request before (a real redirect back), once', async (t) => {
  const app = await makeApp(t)
  const client = new TestClient(app)
  const first = await (await client.get('/form')).text()
  t.regex(first, /value="draft" class="input"/, 'old falls back to its second value')
  t.regex(first, /<p class="ok">fine<\/p>/)
  t.regex(first, /<input type="hidden" name="_token" value="[A-Za-z0-9_-]{107}">/, 'csrfField prints HTML with double braces')
  const posted = await client.post('/form', { title: '<i' })
  t.is(posted.status, 302)
  const shown = await (await client.get('/form')).text()
  t.regex(shown, /value="&lt;i" class="input invalid"/, 'old gives the flashed input, escaped')
  t.regex(shown, /<p class="error">&quot;&lt;i&quot; is too short &lt;b&gt;!&lt;\/b&gt;<\/p>/)
  t.regex(await (await client.get('/form')).text(), /<p class="ok">fine<\/p>/, 'flashed: gone on the next request')
})
