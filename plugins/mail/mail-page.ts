import { escapeHtml, type DevPageHandler } from '../../core/index.ts'
import type { DevMailbox, RecordedMail } from './dev-mailbox.ts'
import { formatAddress, type Address } from './message.ts'

// The page runs no script and loads nothing but itself and the mail's frame.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"
// The mail's HTML in its own sandbox (an opaque origin, no script) even when its address is opened outside the frame;
// a click on its links may leave the frame for the page around it (`<base target="_top">`) or a new tab.
const MAIL_POLICY = "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; script-src 'none'; object-src 'none'"
const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }

/**
 * The mail page of `kiln dev` (`/_kiln/mail`): the mail sent in this
 * process, newest first, and one mail with its headers, its HTML (in a
 * sandboxed frame: its scripts never run, least of all in the app's
 * origin), its text part and its links, which open in the page.
 *
 * @example
 * ```ts
 * app.dev?.page('mail', mailPage(devMailbox(app.dev)))
 * ```
 */
export function mailPage(mailbox: DevMailbox): DevPageHandler {
  return (request, rest) => {
    const path = new URL(request.url).pathname
    const root = path.slice(0, path.length - rest.length).replace(/\/$/, '')
    const [, id, part] = rest.split('/')
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } })
    if (!id) return html(listPage(root, mailbox, undefined), PAGE_POLICY)
    const mail = /^\d+$/.test(id) ? mailbox.find(Number(id)) : undefined
    if (!mail)
      return html(
        listPage(root, mailbox, undefined, `No mail ${id} here: it was sent before kiln dev started, or is older than the last 50.`),
        PAGE_POLICY,
        404,
      )
    if (part === 'html') return html(framed(mail.message.html ?? ''), MAIL_POLICY)
    if (part !== undefined) return new Response('Not Found', { status: 404, headers: NO_STORE })
    return html(listPage(root, mailbox, mail), PAGE_POLICY)
  }
}

function html(body: string, policy: string, status = 200): Response {
  return new Response(body, { status, headers: { ...NO_STORE, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy } })
}

/** The mail's own HTML, its links opening in the page around the frame. */
function framed(mailHtml: string): string {
  const base = '<base target="_top">'
  return /<head[^>]*>/i.test(mailHtml) ? mailHtml.replace(/<head[^>]*>/i, (head) => `${head}${base}`) : `${base}${mailHtml}`
}

function listPage(root: string, mailbox: DevMailbox, open: RecordedMail | undefined, notice?: string): string {
  const mails = mailbox.list()
  const items = mails
    .map(
      (mail) =>
        `<li${mail === open ? ' aria-current="true"' : ''}><a href="${root}/${mail.id}" data-test="mail"><b>${escapeHtml(mail.message.subject)}</b>` +
        `<span>${escapeHtml(addresses(mail.message.to))}</span><time>${mail.sentAt.toLocaleTimeString()}</time></a></li>`,
    )
    .join('')
  const list = mails.length > 0 ? `<ol>${items}</ol>` : '<p>No mail sent since kiln dev started. Mail the app sends shows here.</p>'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${open ? `${escapeHtml(open.message.subject)} · ` : ''}Mail · kiln dev</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><nav><h1><a href="${root}">Mail</a></h1><p>Sent in this kiln dev process, newest first (the last 50).</p>${notice ? `<p role="alert">${escapeHtml(notice)}</p>` : ''}${list}</nav>
<main>${open ? mailView(root, open) : '<p>Choose a mail.</p>'}</main></body></html>`
}

function mailView(root: string, mail: RecordedMail): string {
  const { message } = mail
  const rows: Array<[string, string]> = [
    ['From', formatAddress(message.from)],
    ['To', addresses(message.to)],
    ['Cc', addresses(message.cc)],
    ['Bcc', addresses(message.bcc)],
    ['Reply-To', addresses(message.replyTo)],
    ['Subject', message.subject],
    ['Date', mail.sentAt.toUTCString()],
    ['Message-ID', mail.messageId],
    ['Mailer', mail.mailer],
    ...Object.entries(message.headers),
  ]
  const headers = rows
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('')
  const frame = message.html
    ? `<iframe src="${root}/${mail.id}/html" title="The mail's HTML" data-test="mail-html" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"></iframe>`
    : '<p>This mail has no HTML part.</p>'
  const links = [...new Set(linksIn(message.html ?? '').concat(message.text.match(URLS) ?? []))]
  const linkList = links.length > 0 ? `<ul data-test="mail-links">${links.map((url) => `<li>${link(url)}</li>`).join('')}</ul>` : '<p>None.</p>'
  return `<h2>${escapeHtml(message.subject)}</h2><table data-test="mail-headers">${headers}</table>
<h3>HTML</h3>${frame}<h3>Text</h3><pre data-test="mail-text">${linkify(message.text)}</pre><h3>Links</h3>${linkList}`
}

const URLS = /https?:\/\/[^\s<>"')\]]+/g

/** The `href`s of the mail's HTML anchors that lead somewhere on the web. */
function linksIn(mailHtml: string): string[] {
  return [...mailHtml.matchAll(/<a\b[^>]*\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)]
    .map((match) => unescape(match[1] ?? match[2] ?? ''))
    .filter((href) => /^https?:\/\//i.test(href))
}

function linkify(text: string): string {
  let out = ''
  let last = 0
  for (const match of text.matchAll(URLS)) {
    out += escapeHtml(text.slice(last, match.index)) + link(match[0])
    last = match.index + match[0].length
  }
  return out + escapeHtml(text.slice(last))
}

function link(url: string): string {
  return `<a href="${escapeHtml(url)}" rel="noreferrer">${escapeHtml(url)}</a>`
}

function addresses(list: readonly Address[]): string {
  return list.map(formatAddress).join(', ')
}

function unescape(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
}

const STYLE = `body{margin:0;display:grid;grid-template-columns:minmax(16rem,22rem) 1fr;min-height:100vh;font:15px/1.4 system-ui,sans-serif;color:#1f2328}
nav{border-right:1px solid #d0d7de;padding:1rem;background:#f6f8fa}nav h1{margin:0 0 .25rem;font-size:1.2rem}nav h1 a{color:inherit;text-decoration:none}
nav p{margin:.25rem 0 1rem;color:#57606a;font-size:.85rem}ol{list-style:none;margin:0;padding:0}
li a{display:grid;padding:.5rem;border-radius:6px;color:inherit;text-decoration:none}li a:hover,li[aria-current] a{background:#ddf4ff}
li span,li time{color:#57606a;font-size:.8rem}main{padding:1rem 1.5rem;min-width:0}table{border-collapse:collapse}
th{text-align:left;padding:.15rem 1rem .15rem 0;color:#57606a;font-weight:500;vertical-align:top}td{word-break:break-all}
iframe{width:100%;height:28rem;border:1px solid #d0d7de;border-radius:6px;background:#fff}
pre{white-space:pre-wrap;background:#f6f8fa;padding:1rem;border-radius:6px}main ul a{word-break:break-all}`
