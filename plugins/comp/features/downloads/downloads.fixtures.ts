/** The report that `exporter` sends from the disk. */
export const REPORT = 'id,title\n1,Buy milk\n2,Walk the dog\n'

/**
 * An exporter component whose actions download: a file under `storage/app` (the default root), a path from its state
 * (as user input would give it), made text, a stream, a file of the `local` store, and one action that downloads
 * nothing. A secret file lies outside the roots.
 */
export const downloadFiles: Record<string, string> = {
  'app/components/exporter.ts': `import { Readable } from 'node:stream'
import { Component } from 'kiln-framework/comp'
export default class Exporter extends Component {
  clicks = 0
  file = 'storage/app/reports/q3.csv'
  report() { this.clicks++; return this.download('storage/app/reports/q3.csv', 'report.csv') }
  pick() { return this.download(this.file) }
  made() { this.clicks++; return this.streamDownload('made,' + this.clicks + '\\n', 'made.csv') }
  streamed() { return this.streamDownload(Readable.from(['chunk one ', Buffer.from('chunk two')]), 'stream.txt', { contentType: 'text/plain' }) }
  stored() { return this.download({ store: 'local', key: 'invoices/7.pdf' }, 'invoice 7 é.pdf') }
  big() { return this.streamDownload('x'.repeat(2048), 'big.txt') }
  nothing() { this.clicks++ }
}
`,
  'resources/views/components/exporter.hbs': `<div>
<span id="clicks">{{clicks}}</span>
<button id="report" wire:click="report">report</button>
<button id="made" wire:click="made">made</button>
<button id="stored" wire:click="stored">stored</button>
</div>`,
  // An action named as Livewire's examples name it: it reaches the method it shadows through super.
  'app/components/invoice.ts': `import { Component } from 'kiln-framework/comp'
export default class Invoice extends Component {
  download() { return super.download('storage/app/invoices/7.pdf') }
}
`,
  'resources/views/components/invoice.hbs': '<div><button wire:click="download">Download</button></div>',
  'storage/app/reports/q3.csv': REPORT,
  'storage/app/reports/large.csv': 'x'.repeat(4096),
  'storage/app/invoices/7.pdf': '%PDF-1.4 invoice 7',
  'secret.txt': 'top secret',
}
