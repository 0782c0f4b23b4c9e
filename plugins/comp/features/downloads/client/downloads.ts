import { onEffect } from '../../../client/effects.ts'

// `this.download()` on the server: the answer carries a short-lived address of the file, which the browser fetches
// and saves under the name given; a link clicked from script does that without leaving or reloading the page.
onEffect<{ url: string; name: string }>('download', (_component, download) => {
  const link = document.createElement('a')
  link.href = download.url
  link.download = download.name
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
})
