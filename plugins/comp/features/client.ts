/**
 * The browser halves of the component features: the client's one place a
 * feature is registered (the server's is `features/index.ts`). Each import
 * registers what its feature adds: effect handlers (`onEffect`, run in the
 * order of these imports), `$wire` properties (`wireProperty`), directives
 * (`directive`, `bindModel`), and hooks into requests and their answers
 * (`extendRequests`, `readAnswersWith`).
 */
import './cloak/client/ready.ts'
import './islands/client/islands.ts'
import './events/client/events.ts'
import './query-string/client/query-string.ts'
import './js/client/js.ts'
import './redirects/client/redirects.ts'
import './downloads/client/downloads.ts'
import './transition/client/view-transition.ts'
import './navigate/client/links.ts'
import './navigate/client/progress-bar.ts'
import './navigate/client/persist.ts'
import './echo/client/echo.ts'
import './props/client/props.ts'
import './slots/client/slots.ts'
import './stream/client/stream.ts'
import './uploads/client/upload.ts'
import './json/client/json.ts'
import './wire-helpers/client/wire-helpers.ts'
import './scripts/client/assets.ts'
import './scripts/client/scripts.ts'
