import { ownMeta } from '../../state/class-meta.ts'
import { record } from '../../state/decorators.ts'

/**
 * A property the browser may read but never change: an update to it is
 * refused with 403 (use it for ids a method trusts).
 *
 * @example
 * ```ts
 * class EditPost extends Component {
 *   @locked() postId = 0
 * }
 * ```
 */
export function locked() {
  return (...args: any[]): any => {
    record(args, (Class, name) => void ownMeta(Class).locked.add(name))
  }
}
