import { ownMeta } from '../../state/class-meta.ts'
import { record } from '../../state/decorators.ts'

/**
 * A client-side action declared on the server: the method returns
 * JavaScript that runs in the browser as `$wire.$js.<name>()`, with no round
 * trip. (Not available with `csp_safe`, which forbids evaluating code.)
 *
 * @example
 * ```ts
 * class Search extends Component {
 *   query = ''
 *   @js() clear() { return "$wire.query = ''" }
 * }
 * ```
 */
export function js() {
  return (...args: any[]): any => {
    record(args, (Class, name) => void ownMeta(Class).js.add(name))
  }
}
