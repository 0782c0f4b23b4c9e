import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import Handlebars from 'handlebars'
import { HttpException, KilnError, type ModelQuery, type Model, type Paginated } from '../../../../core/index.ts'
import { frameworkClass } from '../../state/class-meta.ts'
import type { Component } from '../../component.ts'
import type { CompServices } from '../../lifecycle/component-hook.ts'
import type { RenderScope } from '../../rendering/render.ts'

type ComponentConstructor = abstract new (...args: any[]) => Component

/**
 * Pagination for a component: a `page` property kept in the URL (`?page=2`),
 * `gotoPage(n)`, `nextPage()`, `previousPage()`, `resetPage()`, and
 * `paginate(query, perPage)` over the model query builder. Render the links
 * with `{{{paginationLinks todos}}}`.
 *
 * @example
 * ```ts
 * export default class TodoList extends WithPagination(Component) {
 *   async render() {
 *     return view('components/todo-list', { todos: await this.paginate(Todo.query().orderBy('id', 'desc'), 10) })
 *   }
 * }
 * ```
 */
export function WithPagination<TBase extends ComponentConstructor>(Base: TBase) {
  abstract class Paginates extends Base {
    static queryString = ['page']
    /** The current page, from 1. */
    page = 1

    /** Goes to a page (from the browser too: anything but a whole number from 1 is a 422). @example `this.gotoPage(3)` */
    gotoPage(page: number | string): void {
      const number = typeof page === 'string' && /^\d{1,16}$/.test(page.trim()) ? Number(page) : page
      if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1)
        throw new HttpException(422, 'gotoPage takes a page number: a whole number from 1.')
      this.page = number
    }

    /** @example `this.nextPage()` */
    nextPage(): void {
      this.page = Math.min(currentPage(this.page) + 1, Number.MAX_SAFE_INTEGER)
    }

    /** @example `this.previousPage()` */
    previousPage(): void {
      this.page = Math.max(1, currentPage(this.page) - 1)
    }

    /** Back to page 1 (call it when a filter changes). @example `updatedSearch() { this.resetPage() }` */
    resetPage(): void {
      this.page = 1
    }

    /**
     * One page of a query; a page past the end shows the last one.
     *
     * @example
     * ```ts
     * const todos = await this.paginate(Todo.query(), 10)
     * ```
     */
    async paginate<M extends Model>(query: ModelQuery<M>, perPage = 15): Promise<Paginated<M>> {
      // `page` comes from the URL and from updates: any number, 1e308 too, becomes a page that exists.
      this.page = currentPage(this.page)
      const result = await query.paginate(perPage, this.page)
      if (result.currentPage > result.lastPage) {
        this.page = result.lastPage
        return query.paginate(perPage, this.page)
      }
      return result
    }
  }
  frameworkClass(Paginates, ['gotoPage', 'nextPage', 'previousPage'])
  return Paginates
}

/** A page number from whatever `page` holds: a whole number from 1 up to the largest safe integer. */
function currentPage(page: unknown): number {
  const value = Number(page)
  if (!(value >= 1)) return 1
  return Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER)
}

/** The links a page shows: numbers around the current one, and the ends, with gaps between. */
function pageNumbers(current: number, last: number): Array<number | null> {
  const pages = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2].filter((n) => n >= 1 && n <= last))
  const sorted = [...pages].sort((a, b) => a - b)
  const out: Array<number | null> = []
  for (const [index, page] of sorted.entries()) {
    if (index > 0 && page - sorted[index - 1]! > 1) out.push(null)
    out.push(page)
  }
  return out
}

/** Kiln's links view; `kiln vendor:publish --tag=comp-views` copies it into the app to restyle. */
export const PAGINATION_VIEW = fileURLToPath(new URL('./pagination.hbs', import.meta.url))
let template: string | undefined

/**
 * The links of a paginated result, inside a component's view: the app's
 * `components/pagination` view when it has one (publish it with
 * `kiln vendor:publish --tag=comp-views`), else Kiln's. Nothing for a
 * single page.
 *
 * @example
 * ```ts
 * await paginationLinks(manager, todos, scope)
 * ```
 */
export async function paginationLinks(manager: CompServices, page: unknown, scope: RenderScope | undefined): Promise<Handlebars.SafeString> {
  if (!scope) throw new KilnError('{{paginationLinks}} works only inside a component view.')
  const result = page as Paginated<unknown> | undefined
  if (!result || typeof result.currentPage !== 'number' || typeof result.lastPage !== 'number')
    throw new KilnError('{{paginationLinks}} takes the result of this.paginate(...).')
  if (result.lastPage <= 1) return new Handlebars.SafeString('')
  const data = {
    ...result,
    onFirst: result.currentPage <= 1,
    onLast: result.currentPage >= result.lastPage,
    pages: pageNumbers(result.currentPage, result.lastPage).map((number) => ({ number, current: number === result.currentPage })),
  }
  const engine = manager.views.engine()
  template ??= readFileSync(PAGINATION_VIEW, 'utf8')
  const html = engine.exists('components/pagination')
    ? await manager.views.render('components/pagination', data)
    : await manager.views.renderInline(template, data)
  return new Handlebars.SafeString(html)
}
