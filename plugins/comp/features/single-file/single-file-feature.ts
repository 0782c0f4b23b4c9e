import type { FeatureProvider } from '../../extension/feature-provider.ts'
import type { ComponentTemplate } from './html-template.ts'
import { templateSource } from './template-check.ts'

declare module '../../component.ts' {
  // A class's statics are added by merging a namespace into it: an interface reaches only its instances.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Component {
    /** The view, written in the class file with the `html` tag (used when there is no `render()`): `` static template = html`<div>{{count}}</div>` ``. */
    let template: ComponentTemplate | undefined
  }
}

/**
 * Single-file components: a component without `render()` renders its
 * `static template` (before `components/<name>`); outside production each
 * template is parsed as its class registers, so a broken one fails at boot.
 *
 * @example
 * ```ts
 * installFeatures([singleFileFeature])
 * ```
 */
export const singleFileFeature: FeatureProvider = {
  name: 'single-file',
  viewSource: templateSource,
  register({ app, registry }) {
    if (app.config.get<string>('app.env', 'production') !== 'production') registry.check((Class) => void templateSource(Class))
  },
}
