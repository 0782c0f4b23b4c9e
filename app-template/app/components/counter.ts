import { Component } from 'kiln-framework/comp'

/** The smallest component: state, two actions, and a view (resources/views/components/counter.hbs). */
export default class Counter extends Component {
  static title = 'Counter'
  count = 0

  increment() {
    this.count++
  }

  decrement() {
    this.count--
  }
}
