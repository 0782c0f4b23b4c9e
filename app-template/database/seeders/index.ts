import { User } from '../../app/models/user.ts'

/** `kiln db:seed`: the demo user `test@example.com` with the password `password`. */
export default async function seed(): Promise<void> {
  const existing = await User.query().where('email', '=', 'test@example.com').first()
  if (existing) return
  const user = new User()
  user.fill({ name: 'Test User', email: 'test@example.com' })
  await user.setPassword('password')
  await user.save()
}
