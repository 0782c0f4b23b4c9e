import test from 'ava'
import { compDirectives } from '../../../plugins/comp/index.ts'

test('@comp directives side by side both convert; an email address or a property path is left alone', (t) => {
  t.is(compDirectives("@comp('a')@comp('b', n=1)"), '{{{comp "a"}}}{{{comp "b" n=1}}}')
  t.is(compDirectives("<p>@comp('a')</p>@compScripts"), '<p>{{{comp "a"}}}</p>{{{compScripts}}}')
  t.is(compDirectives("mail me@comp('a') x.@comp('b')"), "mail me@comp('a') x.@comp('b')")
  t.is(compDirectives('@comp(\'child\', wire:model.live="draft")'), '{{{comp "child" [wire:model.live]="draft"}}}')
})
