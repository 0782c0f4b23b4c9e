import { z } from 'zod'
import { configDefiner } from '../../core/config/define-config.ts'

/**
 * The schema of `config/comp.ts`. Every key has a default, so the file is
 * optional.
 *
 * @example
 * ```ts
 * // config/comp.ts
 * export default defineConfig(({ env }) => ({
 *   checksum_key: env.get('COMP_CHECKSUM_KEY'),
 *   signature_ttl_minutes: 720,
 *   csp_safe: false,
 * }))
 * ```
 */
export const compConfigSchema = z.strictObject({
  /** The update endpoint (routed path, without `APP_BASE_PATH`). */
  endpoint: z.string().startsWith('/').default('/comp/update'),
  /** Where the client script is served. */
  asset_url: z.string().startsWith('/').default('/comp/comp.js'),
  /** Add the scripts to pages that render components but whose layout forgot `@compScripts`. */
  inject_assets: z.boolean().default(true),
  /** The HMAC key of snapshot checksums; `APP_KEY` when unset. */
  checksum_key: z.string().min(16).nullable().default(null),
  /** Lifetime of a signed update address. */
  signature_ttl_minutes: z.number().positive().default(720),
  /**
   * Lifetime of a component snapshot: a page left open longer reloads on
   * its next update. Every update issues a fresh snapshot, so a page in use
   * never expires.
   */
  snapshot_ttl_minutes: z.number().positive().default(720),
  /**
   * The reactive library (Alpine.js) on a CDN; Kiln serves its own copy when
   * it cannot load. Unset: jsDelivr's copy of the installed version, with its
   * integrity hash. Null: always Kiln's copy.
   */
  reactive_cdn: z.string().url().nullable().optional(),
  /** The client merges updates and calls made within this many milliseconds into one request. */
  coalesce_ms: z.number().int().nonnegative().default(16),
  /** Use the CSP-safe build of the reactive library (no eval; no inline scripts from Kiln). */
  csp_safe: z.boolean().default(false),
  /** Streamed output of actions (`this.stream()`): the most one answer may stream, in kilobytes. */
  stream: z.strictObject({ max_kb: z.number().int().positive().default(1024) }).default({ max_kb: 1024 }),
  /** `wire:navigate` visits: a thin progress bar at the top of the page while a visit takes longer than a moment. */
  navigate: z
    .strictObject({ show_progress_bar: z.boolean().default(true), progress_bar_color: z.string().default('#2299dd') })
    .default({ show_progress_bar: true, progress_bar_color: '#2299dd' }),
  /**
   * Names component templates may read that `kiln check` cannot see: data a view composer of the app adds
   * without declaring it, a helper registered while rendering. Declared here once, accepted in every template.
   */
  template_names: z.array(z.string()).default([]),
  /** Where components are discovered (relative to the app root). */
  path: z.string().default('app/components'),
  /** The layout of full-page components (`Route.comp`), unless the component names its own. */
  layout: z.string().default('layouts/app'),
  /** Limits of one update request. */
  limits: z
    .strictObject({
      /** Largest update body, in bytes (413 beyond). */
      max_payload_bytes: z.number().int().positive().default(2_000_000),
      max_calls: z.number().int().positive().default(50),
      /** Components in one bundled request, listeners included (422 beyond). */
      max_components: z.number().int().positive().default(50),
      max_updates: z.number().int().positive().default(500),
      /** Segments in an update path (`form.address.street` is 3). */
      max_path_depth: z.number().int().positive().default(10),
      /** Nesting of a snapshot's state, an update's value or a call's parameters (objects and lists within each other). */
      max_state_depth: z.number().int().positive().default(32),
      /** Checksum failures one address may cause per minute before it gets 429. */
      checksum_failures_per_minute: z.number().int().positive().default(10),
    })
    .default({
      max_payload_bytes: 2_000_000,
      max_calls: 50,
      max_components: 50,
      max_updates: 500,
      max_path_depth: 10,
      max_state_depth: 32,
      checksum_failures_per_minute: 10,
    }),
  /** File uploads (only into properties declared with `@upload()`). */
  uploads: z
    .strictObject({
      /** The storage store (config/storage.ts) temporary files go to. */
      store: z.string().default('tmp'),
      /** Largest file, in kilobytes; an `@upload({ maxKb })` above it is brought down to it. */
      max_kb: z.number().int().positive().default(12_288),
      /** Types the app accepts at all (`image/*` works), checked against each file's content; empty leaves it to each property's `@upload({ mimes })`. */
      mimes: z.array(z.string()).default([]),
      /** Files one `$upload` may send into a `multiple` property. */
      max_files: z.number().int().positive().default(20),
      /** Temporary files older than this are deleted. */
      max_age_minutes: z
        .number()
        .positive()
        .default(24 * 60),
      /** How long the address a `$upload` answers with can be used (once). */
      url_ttl_minutes: z.number().positive().default(5),
      /** How long a `temporaryUrl()` preview address works (for the uploading session only). */
      preview_ttl_minutes: z.number().positive().default(30),
      /** Megabytes one session may upload per `quota_window_minutes`; past it, 429. */
      quota_mb: z.number().positive().default(100),
      /** Megabytes one client address may upload per `quota_window_minutes`, all its sessions together; past it, 429. */
      address_quota_mb: z.number().positive().default(500),
      quota_window_minutes: z.number().positive().default(60),
    })
    .default({
      store: 'tmp',
      max_kb: 12_288,
      mimes: [],
      max_files: 20,
      max_age_minutes: 24 * 60,
      url_ttl_minutes: 5,
      preview_ttl_minutes: 30,
      quota_mb: 100,
      address_quota_mb: 500,
      quota_window_minutes: 60,
    }),
})

/**
 * Declares `config/comp.ts` with its keys checked: `tsc` rejects a key this file does not have, as boot does.
 *
 * @example
 * ```ts
 * // config/comp.ts
 * export default defineCompConfig({})
 * ```
 */
export const defineCompConfig = configDefiner(compConfigSchema)

/** The parsed `config/comp.ts`. */
export type CompConfig = z.output<typeof compConfigSchema>
