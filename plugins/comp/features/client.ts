/**
 * The browser halves of the component features, in the order their
 * effects apply: the client's one place a feature is registered (the
 * server's is `features/index.ts`). Each import registers its effect
 * handlers with `onEffect`.
 */
import './cloak/client/ready.ts'
import './islands/client/islands.ts'
import './events/client/events.ts'
import './query-string/client/query-string.ts'
import './js/client/js.ts'
import './redirects/client/redirects.ts'
import './transition/client/view-transition.ts'
import './navigate/client/links.ts'
import './navigate/client/progress-bar.ts'
import './navigate/client/persist.ts'
import './echo/client/echo.ts'
