import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import Handlebars, { type ParseOptions } from 'handlebars'
import { HandlebarsEngine } from '../../../core/index.ts'
import { BLOCK_END, BLOCK_START, markedTemplate } from '../../../core/views/block-markers.ts'

const hbs = Handlebars.create()
const S = BLOCK_START
const E = BLOCK_END

/** The template rendered with markers, and checked to equal the plain render once they are taken out. */
function marked(t: { is(a: unknown, b: unknown, message?: string): void }, source: string, data: Record<string, unknown> = {}, except?: string[]): string {
  const html = hbs.compile(markedTemplate(hbs, source, { except }))(data)
  t.is(html.replaceAll(S, '').replaceAll(E, ''), hbs.compile(source)(data), 'the same HTML, markers aside')
  return html
}

test('a block in element content is wrapped, whichever branch renders, and when none does', (t) => {
  const source = '<form>{{#if error}}<p class="error">{{error}}</p>{{/if}}<input><button>Go</button></form>'
  t.is(marked(t, source, { error: 'Too short' }), `<form>${S}<p class="error">Too short</p>${E}<input><button>Go</button></form>`)
  t.is(marked(t, source, {}), `<form>${S}${E}<input><button>Go</button></form>`)
  t.is(marked(t, '{{#unless ok}}<b>no</b>{{/unless}}{{#with user}}<i>{{name}}</i>{{/with}}', { user: { name: 'Ada' } }), `${S}<b>no</b>${E}${S}<i>Ada</i>${E}`)
  t.is(marked(t, '<ul>{{#each xs}}<li>{{this}}</li>{{/each}}</ul>', { xs: [1, 2] }), `<ul>${S}<li>1</li><li>2</li>${E}</ul>`)
})

test('else branches and else-if chains are one block; nested blocks get their own markers', (t) => {
  const chain = '{{#if a}}<p>a</p>{{else if b}}<p>b</p>{{else}}<p>c</p>{{/if}}<input>'
  t.is(marked(t, chain, { a: 1 }), `${S}<p>a</p>${E}<input>`)
  t.is(marked(t, chain, { b: 1 }), `${S}<p>b</p>${E}<input>`)
  t.is(marked(t, chain, {}), `${S}<p>c</p>${E}<input>`)
  t.is(marked(t, '{{#each xs}}<li>{{#if this}}<b>y</b>{{else}}n{{/if}}</li>{{/each}}', { xs: [1, 0] }), `${S}<li>${S}<b>y</b>${E}</li><li>${S}n${E}</li>${E}`)
})

test('a block inside a tag, an attribute value, a comment or a raw-text element is left alone', (t) => {
  t.is(
    marked(t, '<div {{#if x}}hidden{{/if}} class="a {{#if x}}b{{/if}}" title=\'{{#each xs}}{{this}}{{/each}}\'>z</div>', { x: 1, xs: [1] }),
    '<div hidden class="a b" title=\'1\'>z</div>',
  )
  for (const tag of ['script', 'style', 'textarea', 'title', 'SCRIPT']) {
    t.is(
      marked(t, `<${tag} id="t">{{#if x}}a < b{{/if}}</${tag}>{{#if x}}<p>after</p>{{/if}}`, { x: 1 }),
      `<${tag} id="t">a < b</${tag}>${S}<p>after</p>${E}`,
      tag,
    )
  }
  t.is(
    marked(t, '<script>if (a) { x = "</div>" }{{#if x}}y{{/if}}</script>', { x: 1 }),
    '<script>if (a) { x = "</div>" }y</script>',
    'only </script> ends a script',
  )
  t.is(marked(t, '<!-- {{#if x}}c{{/if}} -->{{#if x}}<p>d</p>{{/if}}', { x: 1 }), `<!-- c -->${S}<p>d</p>${E}`)
  t.is(
    marked(t, '<input value="{{#if x}}>{{/if}}">{{#if x}}<p>e</p>{{/if}}', { x: 1 }),
    `<input value=">">${S}<p>e</p>${E}`,
    'a > in a quoted value does not end the tag',
  )
})

test('a block whose branches leave an element open or close an outer one is left alone; the rest still gets markers', (t) => {
  t.is(marked(t, '{{#if a}}<div class="a">{{else}}<div>{{/if}}x</div>{{#if a}}<p>y</p>{{/if}}', { a: 1 }), `<div class="a">x</div>${S}<p>y</p>${E}`)
  t.is(marked(t, '<div>{{#if a}}</div><div>{{/if}}</div>', { a: 1 }), '<div></div><div></div>', 'closes an element it did not open')
  t.is(marked(t, '{{#if a}}<div{{else}}<span{{/if}} id="z">', { a: 1 }), '<div id="z">', 'ends inside a tag')
  t.is(marked(t, '{{#if a}}<img src="x"><br/><hr>{{/if}}', { a: 1 }), `${S}<img src="x"><br/><hr>${E}`, 'void elements need no end tag')
  t.is(marked(t, '{{#if a}}<p>{{#if b}}<i>{{/if}}</p>{{/if}}', { a: 1 }), '<p></p>', 'an unbalanced inner block leaves its outer block bare')
})

test('whitespace is what the template gives without markers: standalone lines and ~ still strip', (t) => {
  const source = '<div>\n  {{#if a}}\n  <p>a</p>\n  {{else}}\n  <p>b</p>\n  {{/if}}\n  <input>\n</div>'
  t.is(marked(t, source, { a: 1 }), `<div>\n${S}  <p>a</p>\n${E}  <input>\n</div>`)
  t.is(marked(t, '  {{~#if a~}}  <p>a</p>  {{~/if~}}  x', { a: 1 }), `${S}<p>a</p>${E}x`)
  t.is(marked(t, '<ul>\n  {{#each xs}}\n  <li>{{this}}</li>\n  {{/each}}\n</ul>\n', { xs: [1] }), `<ul>\n${S}  <li>1</li>\n${E}</ul>\n`)
})

test('helpers named in except are left bare, their inner blocks are not', (t) => {
  hbs.registerHelper('card', function (this: unknown, options: Handlebars.HelperOptions) {
    return new Handlebars.SafeString(`<div class="card">${options.fn(this)}</div>`)
  })
  t.is(marked(t, '{{#card}}{{#if a}}<p>a</p>{{/if}}{{/card}}', { a: 1 }, ['card']), `<div class="card">${S}<p>a</p>${E}</div>`)
  t.is(marked(t, '{{#card}}x{{/card}}', {}), `${S}<div class="card">x</div>${E}`, 'a custom block helper is a block')
})

test('the engine marks a render only when asked, compiles each variant once, and leaves page views as they were', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'kiln-markers-'))
  writeFileSync(join(root, 'box.hbs'), '<div>{{#if on}}<p>on</p>{{/if}}<button>b</button></div>')
  const engine = new HandlebarsEngine(root, { cache: true })
  // Every compile of a source parses it: counting the parses of sources counts compiles.
  let parses = 0
  const inner = (engine as unknown as { hbs: typeof Handlebars }).hbs
  const parse = inner.parse.bind(inner)
  inner.parse = ((input: string | hbs.AST.Program, options?: ParseOptions) => {
    if (typeof input === 'string') parses++
    return parse(input as string, options)
  }) as typeof parse
  t.is(await engine.render('box', { on: true }), '<div><p>on</p><button>b</button></div>')
  for (let i = 0; i < 3; i++)
    t.is(await engine.render('box', { on: i === 1 }, { blockMarkers: {} }), `<div>${S}${i === 1 ? '<p>on</p>' : ''}${E}<button>b</button></div>`)
  t.is(await engine.render('box', { on: true }), '<div><p>on</p><button>b</button></div>', 'the plain view is still plain')
  for (let i = 0; i < 3; i++) t.is(await engine.renderInline('<b>{{#if on}}x{{/if}}</b>', { on: true }, { blockMarkers: {} }), `<b>${S}x${E}</b>`)
  t.is(await engine.renderInline('<b>{{#if on}}x{{/if}}</b>', { on: true }), '<b>x</b>')
  t.is(parses, 4, 'each template compiled once per variant (plain, marked), not per render')
})
