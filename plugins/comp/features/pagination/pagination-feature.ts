import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { scopeOf } from '../../rendering/render.ts'
import { PAGINATION_VIEW, paginationLinks } from './with-pagination.ts'

/**
 * Pagination, besides `WithPagination`: the `{{paginationLinks page}}`
 * helper, and its view published under `comp-views`.
 *
 * @example
 * ```ts
 * installFeatures([paginationFeature])
 * ```
 */
export const paginationFeature: FeatureProvider = {
  name: 'pagination',
  register({ app, services }) {
    app.views.helper('paginationLinks', (page: unknown, options: Parameters<typeof scopeOf>[0]) => paginationLinks(services, page, scopeOf(options)))
    app.service('publisher').publishes('comp-views', [{ from: PAGINATION_VIEW, to: 'resources/views/components/pagination.hbs' }])
  },
}
