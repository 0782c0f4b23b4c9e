import { pageFiles } from './comp-fixtures.ts'

/**
 * The to-do form most component tests drive, as a Livewire user writes one: rules, a locked property, an event it
 * dispatches (`todo-added`) and one it listens for (`clear-all`), a computed property and `validateOnly`. Shared by
 * the kernel's tests and the events, magic-actions and validation features' tests.
 */
export const todoFormFiles: Record<string, string> = {
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

/**
 * Components and views the kernel's tests share, each shown at `/page/<name>`: a model and its migration, a component
 * holding models, dates and bigints (note-card), a parent with keyed children (parent-list), one rendering two roots,
 * and a to-do form and a search box that use features (rules, listeners, a locked property, the query string) the way
 * an app does. A feature's own test components are in its folder (`features/<name>/<name>.fixtures.ts`).
 */
export const kernelFiles: Record<string, string> = {
  ...pageFiles,
  'database/migrations/0001_notes.ts': `import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('notes').addColumn('id', ...increments(db)).addColumn('title', 'varchar(255)').addColumn('secret', 'varchar(255)')
    .addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
}
export async function down(db) { await db.schema.dropTable('notes').execute() }
`,
  'app/models/note.ts': `import { Model } from 'kiln-framework'
export class Note extends Model {
  static table = 'notes'
  static fillable = ['title', 'secret']
  static hidden = ['secret']
  declare id: number
  declare title: string
}
`,
  ...todoFormFiles,
  'app/components/search.ts': `import { Component } from 'kiln-framework/comp'
export default class Search extends Component {
  static queryString = ['q', 'sort']
  q = ''
  sort = 'asc'
  limit = 10
  render() { return '<div>{{q}}/{{sort}}/{{limit}}</div>' }
}
`,
  'app/components/note-card.ts': `import { Component } from 'kiln-framework/comp'
import { Note } from '../models/note.ts'
export default class NoteCard extends Component {
  note: Note | null = null
  notes: Note[] = []
  seenAt = new Date('2026-01-02T03:04:05.000Z')
  size = 12n
  async mount() {
    this.note = await Note.create({ title: 'First', secret: 'hunter2' })
    this.notes = [this.note, await Note.create({ title: 'Second', secret: 'x' })]
  }
  touch() {
    if (!(this.note instanceof Note)) throw new Error('not a model')
    if (!(this.seenAt instanceof Date)) throw new Error('not a date')
    this.seenAt = new Date(this.seenAt.getTime() + 1000)
    this.size += 1n
    this.note.title = this.note.title + '!'
  }
  render() { return '<div>{{note.title}} {{notes.length}}</div>' }
}
`,
  'app/components/parent-list.ts': `import { Component } from 'kiln-framework/comp'
export default class ParentList extends Component {
  rows = ['a', 'b']
  renders = 0
  rendering() { this.renders++ }
  addRow() { this.rows.push('c') }
  render() { return '<ul>{{#each rows}}<li>{{{comp "child-item" label=this key=this}}}</li>{{/each}}</ul>' }
}
`,
  'app/components/child-item.ts': `import { Component } from 'kiln-framework/comp'
export default class ChildItem extends Component {
  label = ''
  render() { return '<span>child {{label}}</span>' }
}
`,
  'app/components/two-roots.ts': `import { Component } from 'kiln-framework/comp'
export default class TwoRoots extends Component {
  render() { return '<div>one</div><div>two</div>' }
}
`,
}
