import { readFileSync } from 'node:fs'
import test from 'ava'
import { GUIDE, shown } from './guide-commands.ts'

const guide = readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8')
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

test("getting started's first three steps run the newcomer test's commands, in its order", (t) => {
  const steps = guide.slice(0, guide.indexOf('\n## 4.'))
  const commands = [...steps.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.trim().split('\n'))
  t.deepEqual(commands, [
    'git clone <url-of-the-kiln-repository> kiln',
    'cd kiln',
    'npm install',
    shown(GUIDE.pack, '..'),
    'cd ..',
    shown(GUIDE.create, `kiln-framework-${version}.tgz`),
    'cd my-app',
    shown(GUIDE.dev, 3000),
  ])
})
