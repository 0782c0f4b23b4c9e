import { Component, html } from 'kiln-framework/comp'

/** The smallest component: state, two actions, and its view, in one file. */
export default class Counter extends Component {
  static title = 'Counter'
  count = 0

  increment() {
    this.count++
  }

  decrement() {
    this.count--
  }

  static template = html`
    <section class="card counter">
      <h1>Counter</h1>
      <p class="count" data-test="count">{{count}}</p>
      <button type="button" wire:click="decrement" data-test="decrement">−</button>
      <button type="button" wire:click="increment" data-test="increment">+</button>
      <p class="muted">Each click is a request to <code>/comp/update</code>; the page never reloads.</p>
    </section>
  `
}
