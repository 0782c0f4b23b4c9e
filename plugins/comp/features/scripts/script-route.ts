import { createHash } from 'node:crypto'
import { HttpException, type HandlerFunction } from '../../../../core/index.ts'
import type { CompServices } from '../../lifecycle/component-hook.ts'
import type { ComponentRegistry } from '../../registry/registry.ts'
import { scriptDirectives, scriptModuleByHash } from './script-blocks.ts'

const FILE = /^([a-f0-9]{20})\.js$/

/**
 * `GET /comp/scripts/<hash>.js`: the module of a component's `@script`
 * block. The hash is the module's, so the answer never changes and is
 * cached for a year; a process that has not compiled the template yet
 * (another process behind a balancer, a restart) reads every component's
 * `static template` and `components/<name>` view first, once. An unknown
 * hash is a 404.
 *
 * @example
 * ```ts
 * app.router.get('/comp/scripts/{file}', scriptRoute(services, registry))
 * ```
 */
export function scriptRoute(services: CompServices, registry: ComponentRegistry): HandlerFunction {
  // Once per process: requests for made-up hashes must not make it read every view again and again.
  let read = false
  return (ctx) => {
    const hash = FILE.exec(ctx.params.file ?? '')?.[1]
    if (!hash) throw new HttpException(404, 'There is no such component script.')
    let module = scriptModuleByHash(hash)
    if (module === undefined && !read) {
      read = true
      readComponentTemplates(services, registry)
      module = scriptModuleByHash(hash)
    }
    if (module === undefined) throw new HttpException(404, 'There is no such component script.')
    const etag = `"${createHash('sha256').update(module).digest('hex').slice(0, 16)}"`
    if (ctx.request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag } })
    return new Response(module, {
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        etag,
      },
    })
  }
}

/** Every registered component's `static template` and `components/<name>` view, through the `@script` preprocessor. */
function readComponentTemplates(services: CompServices, registry: ComponentRegistry): void {
  for (const name of registry.all()) {
    const template = (registry.get(name) as { template?: unknown } | undefined)?.template
    if (template !== undefined) scriptDirectives(String(template))
    try {
      // The views' preprocessors run as the source is read, ours among them.
      services.views.source(`components/${name.replaceAll('.', '/')}`)
    } catch {
      // A view that does not compile is reported when it renders, not by a script request.
    }
  }
}
