/** Data keys that never become parameters: they would reach the prototype, not the event's own data. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u

/** Parameter names by function; null when they cannot be read (destructuring, a rest parameter, native code). */
const cache = new WeakMap<Function, string[] | null>()

/**
 * The arguments a listener gets for an event's data, as Livewire passes
 * them: by name, `count(title, priority)` receives `data.title` and
 * `data.priority`. The whole data object is passed, as the one argument,
 * when the names cannot be read (a destructured parameter
 * `count({ title })`, a rest parameter, a native or bound function), or
 * when the method has one parameter whose name is not a key of the data
 * (`count(data)` with `{ title }`), the form listeners had before named
 * parameters. `__proto__`, `constructor` and `prototype` never become
 * parameters.
 *
 * @example
 * ```ts
 * listenerArguments(function count(title: string) {}, { title: 'Milk' }) // ['Milk']
 * listenerArguments(function count({ title }: { title: string }) {}, { title: 'Milk' }) // [{ title: 'Milk' }]
 * ```
 */
export function listenerArguments(method: Function, data: Record<string, unknown>): unknown[] {
  const names = parameterNames(method)
  if (!names || names.length === 0) return [data]
  const own = (name: string) => !FORBIDDEN.has(name) && Object.prototype.hasOwnProperty.call(data, name)
  if (names.length === 1 && !own(names[0]!)) return [data]
  return names.map((name) => (own(name) ? data[name] : undefined))
}

/**
 * A function's parameter names, read once from its source
 * (`Function.prototype.toString`): defaults are skipped over, whatever
 * they contain; null when a parameter is destructured or a rest parameter,
 * or the source is not readable.
 *
 * @example
 * ```ts
 * parameterNames(function add(title, done = false) {}) // ['title', 'done']
 * ```
 */
export function parameterNames(fn: Function): string[] | null {
  if (cache.has(fn)) return cache.get(fn)!
  let names: string[] | null
  try {
    names = readNames(Function.prototype.toString.call(fn))
  } catch {
    names = null
  }
  cache.set(fn, names)
  return names
}

function readNames(source: string): string[] | null {
  const list = parameterList(source)
  if (list === null) return null
  const names: string[] = []
  for (const part of splitTopLevel(list)) {
    const text = part.trim()
    if (text === '') continue
    // A default value follows the first top-level "=" (the split already skipped nested ones).
    const name = text.split('=')[0]!.trim()
    if (!IDENTIFIER.test(name)) return null
    names.push(name)
  }
  return names
}

/** The text between a function's parameter parentheses; null when there are none (an arrow with one bare parameter). */
function parameterList(source: string): string | null {
  const text = stripComments(source)
  const open = text.indexOf('(')
  if (open < 0) return null
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const char = text[i]!
    if (char === '"' || char === "'" || char === '`') {
      i = skipString(text, i)
      continue
    }
    if (char === '(' || char === '[' || char === '{') depth++
    else if (char === ')' || char === ']' || char === '}') depth--
    if (depth === 0) return text.slice(open + 1, i)
  }
  return null
}

/** Splits a parameter list at its top-level commas. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === '"' || char === "'" || char === '`') {
      i = skipString(text, i)
      continue
    }
    if (char === '(' || char === '[' || char === '{') depth++
    else if (char === ')' || char === ']' || char === '}') depth--
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** The index of a string literal's closing quote (template literals' `${}` parts are skipped whole). */
function skipString(text: string, start: number): number {
  const quote = text[start]!
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!
    if (char === '\\') i++
    else if (char === quote) return i
    else if (quote === '`' && char === '$' && text[i + 1] === '{') {
      let depth = 0
      for (i++; i < text.length; i++) {
        if (text[i] === '{') depth++
        else if (text[i] === '}' && --depth === 0) break
      }
    }
  }
  return text.length
}

/** Source without comments (strings are left alone, so a "//" inside one survives). */
function stripComments(source: string): string {
  let out = ''
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!
    if (char === '"' || char === "'" || char === '`') {
      const end = skipString(source, i)
      out += source.slice(i, end + 1)
      i = end
    } else if (char === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++
      out += '\n'
    } else if (char === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2)
      i = end < 0 ? source.length : end + 1
      out += ' '
    } else out += char
  }
  return out
}
