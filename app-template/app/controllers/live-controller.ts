import { ValidationException, view, type HttpContext } from 'kiln-framework'
import { broadcast } from 'kiln-framework/broadcasting'
import { z } from 'zod'
import { MessagePosted } from '../events/message-posted.ts'
import type { User } from '../models/user.ts'

const message = z.object({ body: z.string().trim().min(1, 'Write something first.').max(500, 'Keep it under 500 characters.') })

/** The live page: who is here, and messages that reach the others at once. */
export class LiveController {
  show({ request, app }: HttpContext) {
    // The page needs the in-process socket server; with another broadcaster it says how to turn it on.
    const connection = app.config.get<string>('broadcasting.default')
    const driver = app.config.get<string | undefined>(`broadcasting.connections.${connection}.driver`)
    return view('live', { title: 'Live', me: request.user<User>(), realtime: driver === 'rt' || driver === 'websocket', connection })
  }

  async post({ request }: HttpContext) {
    const parsed = message.safeParse({ body: request.input('body') })
    if (!parsed.success) throw new ValidationException({ body: parsed.error.issues.map((issue) => issue.message) })
    const user = request.user<User>()!
    await broadcast(new MessagePosted({ id: Number(user.id), name: String(user.name) }, parsed.data.body)).toOthers()
    return new Response(JSON.stringify({ body: parsed.data.body }), { status: 201, headers: { 'content-type': 'application/json' } })
  }
}
