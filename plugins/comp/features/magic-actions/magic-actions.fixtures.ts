/** Test component of the magic actions (`$set`, `$toggle`, `$refresh`): a to-do form with a number, a text and a locked property. */
export const magicActionsFiles: Record<string, string> = {
  'app/components/todo-form.ts': `import { Component, on, computed, locked } from 'kiln-framework/comp'
import { z } from 'zod'
export default class TodoForm extends Component {
  static rules = z.object({ title: z.string().min(3, 'The title must be at least 3 characters.'), priority: z.number().int().min(1).max(5) })
  title = ''
  priority = 1
  items: string[] = []
  @locked() ownerId = 7
  saves = 0
  save() {
    const { title } = this.validate()
    this.items.push(title)
    this.saves++
    this.dispatch('todo-added', { title })
    this.reset('title')
  }
  @on('clear-all') clearAll() { this.items = [] }
  @computed() get remaining() { this.saves += 0; return this.items.length }
  checkTitle() { this.validateOnly('title') }
}
`,
  'resources/views/components/todo-form.hbs':
    '<form wire:submit="save"><input wire:model="title"><p class="error">{{error "title"}}</p><p class="remaining">{{remaining}} left</p><ul>{{#each items}}<li>{{this}}</li>{{/each}}</ul></form>',
}
