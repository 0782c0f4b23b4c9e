import { Model } from 'kiln-framework'

/** A to-do of one user (the todos page). */
export class Todo extends Model {
  static table = 'todos'
  static fillable = ['user_id', 'title', 'done']
  static casts = { done: 'boolean' } as const

  declare id: number
  declare user_id: number
  declare title: string
  declare done: boolean
}
