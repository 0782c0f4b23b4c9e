import test from 'ava'
import { fileTypeFromBuffer } from 'file-type'
import { FakeFile, testComponent, UploadedFile } from '../../../../plugins/comp/index.ts'
import { compApp } from '../../../../tests/plugins/comp/comp-fixtures.ts'

// A component as the docs write one: an image and a list of PDFs, each with its rules, kept by an action.
const files = {
  'app/components/profile.ts': `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Profile extends Component {
  @upload({ mimes: ['image/png'], maxKb: 200 }) photo: TemporaryUploadedFile | null = null
  @upload({ mimes: ['application/pdf'], multiple: true }) papers: TemporaryUploadedFile[] = []
  saved: Array<{ name: string; type: string; size: number }> = []
  save() {
    for (const file of [this.photo, ...this.papers]) if (file) this.saved.push({ name: file.name, type: file.type, size: file.size })
  }
}
`,
  'resources/views/components/profile.hbs': '<div>{{#if photo}}<p class="photo">{{photo.name}}</p>{{/if}}{{#each papers}}<p>{{this.name}}</p>{{/each}}</div>',
}

const storage = { default: 'local', stores: { local: { driver: 'fs', base: 'storage/app' }, tmp: { driver: 'fs', base: 'storage/tmp' } } }
const setup = (t: Parameters<typeof compApp>[0]) => compApp(t, files, { comp: { uploads: { store: 'tmp' } }, storage })

test('UploadedFile.fake().image() is a real PNG of that size, which file-type sniffs as image/png', async (t) => {
  const image = UploadedFile.fake().image('a.png', 100, 40)
  t.is(image.type, 'image/png')
  t.deepEqual(await fileTypeFromBuffer(image.bytes), { ext: 'png', mime: 'image/png' })
  const view = new DataView(image.bytes.buffer, image.bytes.byteOffset)
  t.deepEqual([view.getUint32(16), view.getUint32(20)], [100, 40], 'the IHDR width and height')
  t.throws(() => UploadedFile.fake().image('a.jpg'), { code: 'E_COMP_TEST', message: /makes PNG images: name it \.png/ })
  const pdf = UploadedFile.fake().create('a.pdf', 30)
  t.is(pdf.size, 30 * 1024)
  t.is(pdf.type, 'application/pdf')
  t.is((await fileTypeFromBuffer(pdf.bytes))?.mime, 'application/pdf')
})

test('a fake file set into an @upload property goes through $upload, the upload endpoint and the temporary store', async (t) => {
  const { app } = await setup(t)
  const profile = await testComponent(app, 'profile')
    .set('photo', UploadedFile.fake().image('me.png', 100, 100))
    .set('papers', [UploadedFile.fake().create('one.pdf', 10), UploadedFile.fake().create('two.pdf', 20)])
    .assertHasNoErrors()
    .assertSee('me.png')
    .call('save')
  t.deepEqual(
    profile.get('saved'),
    [
      { name: 'me.png', type: 'image/png', size: UploadedFile.fake().image('x.png', 100, 100).size },
      { name: 'one.pdf', type: 'application/pdf', size: 10 * 1024 },
      { name: 'two.pdf', type: 'application/pdf', size: 20 * 1024 },
    ],
    'the component reads the stored files',
  )
  t.regex(String(profile.data.photo), /^comp-upload:/, 'the state holds the reference, as after a real upload')
})

test("the property's rules refuse a fake file as a real one: by what is described, and by its content", async (t) => {
  const { app } = await setup(t)
  // Too large: refused by $upload, before sending; the property keeps its value.
  const profile = await testComponent(app, 'profile')
    .set('photo', UploadedFile.fake().create('big.png', 300))
    .assertHasErrors({ photo: 'may not be larger than 200 KB' })
    .assertSet('photo', null)
  // Named .png, a PDF inside: refused on its content by the upload endpoint (422), shown in the errors as the browser shows it.
  const disguised = new FakeFile('fake.png', 'image/png', UploadedFile.fake().create('fake.pdf', 5).bytes)
  await profile
    .set('photo', disguised)
    .assertStatus(422)
    .assertHasErrors({ photo: /The content of "fake\.png" is not one of: image\/png/ })
  t.is(profile.get('photo'), null)
  // The next update starts from the server's errors again, as the browser's does.
  await profile.call('save').assertStatus(200).assertHasNoErrors()
  t.deepEqual(profile.get('saved'), [])
})
