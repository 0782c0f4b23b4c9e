import { Rt } from './rt.ts'

export * from './index.ts'
// A plain <script type="module"> page can use window.KilnRt without an import map.
;(globalThis as { KilnRt?: typeof Rt }).KilnRt = Rt
