import { HttpException, view } from 'kiln-framework'
import { Component, WithPagination } from 'kiln-framework/comp'
import { z } from 'zod'
import { Todo } from '../models/todo.ts'
import type { User } from '../models/user.ts'

/**
 * The signed-in user's to-dos: add one (validated), tick it off, delete it,
 * filter by state (kept in the URL), five to a page.
 */
export default class TodoList extends WithPagination(Component) {
  static title = 'To-dos'
  static queryString = ['filter']
  static rules = z.object({ title: z.string().trim().min(3, 'A to-do needs at least 3 characters.').max(200, 'Keep it under 200 characters.') })

  title = ''
  filter: 'all' | 'open' | 'done' = 'all'

  async add() {
    const { title } = this.validate()
    await Todo.create({ user_id: this.#userId(), title, done: false })
    this.reset('title')
    this.resetPage()
  }

  async toggle(id: number) {
    const todo = await this.#todo(id)
    todo.done = !todo.done
    await todo.save()
  }

  async remove(id: number) {
    await (await this.#todo(id)).delete()
  }

  /** Filtering starts from the first page. */
  updatedFilter() {
    this.resetPage()
  }

  async render() {
    let query = Todo.query().where('user_id', '=', this.#userId()).orderBy('id', 'desc')
    if (this.filter === 'open') query = query.where('done', '=', false)
    if (this.filter === 'done') query = query.where('done', '=', true)
    return view('components/todo-list', { todos: await this.paginate(query, 5) })
  }

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #userId(): number {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user.id
  }

  /** One of this user's to-dos: an id from the browser is never trusted to be theirs. */
  async #todo(id: number): Promise<Todo> {
    const todo = await Todo.query()
      .where('id', '=', Number(id) || 0)
      .where('user_id', '=', this.#userId())
      .first()
    if (!todo) throw new HttpException(404, 'No such to-do.')
    return todo
  }
}
