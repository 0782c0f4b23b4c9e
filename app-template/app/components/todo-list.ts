import { HttpException } from 'kiln-framework'
import { broadcast } from 'kiln-framework/broadcasting'
import { Component, html, locked, on, WithPagination } from 'kiln-framework/comp'
import { TodosChanged } from '../events/todos-changed.ts'
import { TodoForm } from '../forms/todo-form.ts'
import { Todo } from '../models/todo.ts'
import type { User } from '../models/user.ts'

/**
 * The signed-in user's to-dos: add one (through a form object, checked as it
 * is sent), tick it off, delete it, filter by state (kept in the URL), five
 * to a page. A change is broadcast on the user's private channel, and the
 * list open in the user's other tabs hears it (an echo listener) and
 * reloads: with BROADCAST_CONNECTION=rt. A single-file component: the class
 * and its template.
 */
export default class TodoList extends WithPagination(Component) {
  static title = 'To-dos'
  static queryString = ['filter']

  form = new TodoForm()
  filter: 'all' | 'open' | 'done' = 'all'
  /** Names the channel the echo listener below subscribes to; locked, and the channel is authorised anyway. */
  @locked() userId = 0

  mount() {
    this.userId = this.#userId()
  }

  async add() {
    const { title } = this.form.validate()
    await Todo.create({ user_id: this.#userId(), title, done: false })
    this.form.reset()
    this.resetPage()
    await this.#changed()
  }

  async toggle(id: number) {
    const todo = await this.#todo(id, 'update')
    todo.done = !todo.done
    await todo.save()
    await this.#changed()
  }

  async remove(id: number) {
    await (await this.#todo(id, 'delete')).delete()
    await this.#changed()
  }

  /** Another tab of this user changed the to-dos: render again (with() reads them afresh). */
  @on('echo-private:app.models.User.{userId},TodosChanged')
  refresh() {}

  /** Filtering starts from the first page. */
  updatedFilter() {
    this.resetPage()
  }

  /** The view's page of to-dos: view data, not state, so it is never sent to the browser. */
  async with() {
    let query = Todo.query().where('user_id', '=', this.#userId()).orderBy('id', 'desc')
    if (this.filter === 'open') query = query.where('done', '=', false)
    if (this.filter === 'done') query = query.where('done', '=', true)
    return { todos: await this.paginate(query, 5) }
  }

  static template = html`
    <section class="card todos">
      <h1>To-dos</h1>
      <form wire:submit="add" class="row">
        <input name="title" wire:model="form.title" placeholder="What needs doing?" aria-label="New to-do" data-test="title" {{#error "form.title"}}aria-invalid="true"{{/error}}>
        <button type="submit" data-test="add">Add</button>
      </form>
      {{#error "form.title"}}<p class="error" data-test="title-error">{{message}}</p>{{/error}}
      <p class="filters">
        Show
        <select wire:model.live="filter" data-test="filter" aria-label="Filter">
          <option value="all">all</option>
          <option value="open">open</option>
          <option value="done">done</option>
        </select>
        <span wire:loading class="muted">saving…</span>
      </p>
      <ul class="plain">
        {{#each todos.data as |todo|}}
          <li wire:key="todo-{{todo.id}}" wire:transition data-test="todo">
            <label><input type="checkbox" wire:click="toggle({{todo.id}})" {{#if todo.done}}checked{{/if}}> <span class="{{class done=todo.done}}">{{todo.title}}</span></label>
            <button type="button" class="link" wire:click="remove({{todo.id}})" wire:confirm="Delete this to-do?" data-test="remove">delete</button>
          </li>
        {{else}}
          <li class="muted" data-test="empty">Nothing here.</li>
        {{/each}}
      </ul>
      {{paginationLinks todos}}
    </section>
  `

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #userId(): number {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user.id
  }

  /** Tells the user's other tabs; not this one, whose requests name its socket (toOthers). */
  async #changed() {
    await broadcast(new TodosChanged(this.#userId())).toOthers()
  }

  /** A to-do the user may change: an id from the browser is never trusted, TodoPolicy decides (a 403 otherwise). */
  async #todo(id: number, ability: 'update' | 'delete'): Promise<Todo> {
    const todo = await Todo.find(Number(id) || 0)
    if (!todo) throw new HttpException(404, 'No such to-do.')
    await this.authorize(ability, todo)
    return todo
  }
}
