import { defineFactory } from 'kiln-framework'
import { Todo } from '../../app/models/todo.ts'

/**
 * To-dos, open by default; give them an owner with `for(user)`.
 *
 *     await Todo.factory().count(5).for(user).create()
 *     await Todo.factory().state('done').for(user).create({ title: 'Buy milk' })
 */
export default defineFactory(
  Todo,
  ({ fake }) => ({
    title: fake.sentence(3),
    done: false,
  }),
  {
    states: {
      done: { done: true },
    },
  },
)
