import type { Todo } from '../models/todo.ts'
import type { User } from '../models/user.ts'

/**
 * Who may do what with a to-do: only its owner changes or deletes it. Found
 * by the gate for the Todo model by its file name (app/policies/todo-policy.ts);
 * the to-do list calls `this.authorize('update', todo)`.
 */
export class TodoPolicy {
  update(user: User, todo: Todo): boolean {
    return todo.user_id === user.id
  }

  delete(user: User, todo: Todo): boolean {
    return todo.user_id === user.id
  }
}
