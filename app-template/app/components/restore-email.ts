import { HttpException } from 'kiln-framework'
import { Component, html, locked } from 'kiln-framework/comp'
import { findEmailChange, restoreEmail } from '../auth/email-restore.ts'

/**
 * `/email/restore/{change}`, the "Undo this change" link of the notice
 * mailed to the old address when the account's email changed (see
 * app/auth/email-restore.ts). Opening the link only shows what pressing
 * the button will do: mail scanners open links, and must not undo
 * anything. The button takes the old address back and locks out whoever
 * changed it. The route's `signed:relative` middleware refuses a link that
 * was changed or has expired; no login is needed, the link is the proof.
 */
export default class RestoreEmail extends Component {
  static title = 'Undo the change of your email address'

  /** From the link: the browser may not change them. */
  @locked() change = ''
  @locked() email = ''
  /** 'ready' (the button shows), 'restored', 'already-undone', 'taken' or 'not-found'. */
  @locked() outcome = 'ready'

  async mount() {
    // The route checks the signature; checked again, so the component answers to nothing else.
    if (!this.ctx.app.service('signer').hasValidSignature(this.ctx, { relative: true })) throw new HttpException(403, 'Invalid signature.')
    const change = await findEmailChange(Number(this.change))
    this.email = change?.oldEmail ?? ''
    this.outcome = !change ? 'not-found' : change.undone ? 'already-undone' : 'ready'
  }

  async restore() {
    if (this.outcome !== 'ready') return
    this.outcome = await restoreEmail(this.ctx.auth, Number(this.change))
  }

  with() {
    const state = this.outcome
    return {
      ready: state === 'ready',
      restored: state === 'restored',
      alreadyUndone: state === 'already-undone',
      taken: state === 'taken',
      notFound: state === 'not-found',
    }
  }

  static template = html`
    <section class="card auth">
      <h1>Undo the change of your email address</h1>
      {{#if ready}}
        <p>The email address of your account was changed. If it was not you, take <strong data-test="email">{{email}}</strong> back as its address.</p>
        <p>Whoever changed it is logged out, everywhere: every browser logs out, the account's personal access tokens are revoked, and its password is replaced. We then mail a link to {{email}} to choose a new password.</p>
        <form wire:submit="restore">
          <button type="submit" data-test="restore">Restore my email address</button>
        </form>
      {{/if}}
      {{#if restored}}
        <p class="success" data-test="restored">Your address is restored and every browser is logged out. We mailed a link to choose a new password.</p>
      {{/if}}
      {{#if alreadyUndone}}
        <p data-test="already-undone">This change was already undone: the link does nothing more. If you need a new password, <a href="{{url "/forgot-password"}}">ask for a link</a>.</p>
      {{/if}}
      {{#if taken}}
        <p class="error" data-test="taken">{{email}} is now the address of another account, so it cannot be given back to this one. Nothing was changed.</p>
      {{/if}}
      {{#if notFound}}
        <p class="error" data-test="not-found">This link is not valid: the account it was for no longer exists.</p>
      {{/if}}
    </section>
  `
}
