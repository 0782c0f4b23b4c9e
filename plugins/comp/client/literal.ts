/** A parsed action: `save`, `add(1, 'x')`, `$set('open', true)`. */
export interface ParsedAction {
  method: string
  params: unknown[]
}

/**
 * Parses `method(arg, ...)` where arguments are literals (numbers, strings in
 * single or double quotes, true/false/null, arrays and objects of those) or
 * `$event`. No eval: it works under a strict Content Security Policy.
 */
export function parseAction(source: string, event?: Event): ParsedAction {
  const text = source.trim()
  const open = text.indexOf('(')
  if (open === -1) return { method: text, params: [] }
  if (!text.endsWith(')')) throw new SyntaxError(`Cannot read the action "${source}".`)
  const method = text.slice(0, open).trim()
  const reader = new Reader(text.slice(open + 1, -1), event)
  const params: unknown[] = []
  reader.space()
  while (!reader.done()) {
    params.push(reader.value())
    reader.space()
    if (!reader.done()) reader.expect(',')
    reader.space()
  }
  return { method, params }
}

class Reader {
  private at = 0
  constructor(
    private readonly text: string,
    private readonly event?: Event,
  ) {}

  done(): boolean {
    return this.at >= this.text.length
  }

  space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++
  }

  expect(char: string): void {
    if (this.text[this.at] !== char) throw new SyntaxError(`Expected "${char}" in "${this.text}".`)
    this.at++
  }

  value(): unknown {
    this.space()
    const char = this.text[this.at]
    if (char === '"' || char === "'") return this.string(char)
    if (char === '[') return this.list()
    if (char === '{') return this.object()
    const word = /^(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined|\$event(?:\.[\w.]+)?)/i.exec(this.text.slice(this.at))?.[0]
    if (!word) throw new SyntaxError(`Cannot read an argument in "${this.text}".`)
    this.at += word.length
    if (word === 'true') return true
    if (word === 'false') return false
    if (word === 'null' || word === 'undefined') return null
    if (word.startsWith('$event'))
      return word
        .split('.')
        .slice(1)
        .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], this.event)
    return Number(word)
  }

  private string(quote: string): string {
    this.at++
    let out = ''
    while (!this.done() && this.text[this.at] !== quote) {
      if (this.text[this.at] === '\\') this.at++
      out += this.text[this.at++]
    }
    this.expect(quote)
    return out
  }

  private list(): unknown[] {
    this.expect('[')
    const out: unknown[] = []
    this.space()
    while (this.text[this.at] !== ']') {
      out.push(this.value())
      this.space()
      if (this.text[this.at] === ',') this.at++
      this.space()
      if (this.done()) throw new SyntaxError('Unclosed list.')
    }
    this.at++
    return out
  }

  private object(): Record<string, unknown> {
    this.expect('{')
    const out: Record<string, unknown> = {}
    this.space()
    while (this.text[this.at] !== '}') {
      let key: string
      const quote = this.text[this.at]
      if (quote === '"' || quote === "'") key = this.string(quote)
      else {
        key = /^[\w$]+/.exec(this.text.slice(this.at))?.[0] ?? ''
        if (!key) throw new SyntaxError('Expected a key.')
        this.at += key.length
      }
      this.space()
      this.expect(':')
      const value = this.value()
      if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype') out[key] = value
      this.space()
      if (this.text[this.at] === ',') this.at++
      this.space()
      if (this.done()) throw new SyntaxError('Unclosed object.')
    }
    this.at++
    return out
  }
}

/** Reads a dotted path (`form.email`, `items.0.done`) from an object. */
export function getPath(root: unknown, path: string): unknown {
  let current = root
  for (const key of path.split('.')) current = current === null || typeof current !== 'object' ? undefined : (current as Record<string, unknown>)[key]
  return current
}

/** Writes a dotted path, creating plain objects on the way. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let current: Record<string, unknown> = root
  for (const key of keys.slice(0, -1)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return
    if (current[key] === null || typeof current[key] !== 'object') current[key] = {}
    current = current[key] as Record<string, unknown>
  }
  const last = keys.at(-1)!
  if (last !== '__proto__' && last !== 'constructor' && last !== 'prototype') current[last] = value
}
