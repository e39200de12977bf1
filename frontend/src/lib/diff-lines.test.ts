import { describe, expect, it } from 'vitest'
import { diffRows, diffStat } from './diff-lines'

const diff = `--- a/calc.go
+++ b/calc.go
@@ -2,3 +2,4 @@
 
 func Add(a, b int) int {
-	return a - b
+	return a + b
+	// fixed
@@ -10,2 +11,2 @@ func Sub
 x
-y
+z
\\ No newline at end of file
`

describe('diffRows', () => {
  it('numbers each line in the old and the new file, across hunks', () => {
    const rows = diffRows(diff)
    expect(rows.map((r) => [r.kind, r.old, r.new, r.text])).toEqual([
      ['file', undefined, undefined, '--- a/calc.go'],
      ['file', undefined, undefined, '+++ b/calc.go'],
      ['hunk', undefined, undefined, '@@ -2,3 +2,4 @@'],
      ['ctx', 2, 2, ''],
      ['ctx', 3, 3, 'func Add(a, b int) int {'],
      ['del', 4, undefined, '\treturn a - b'],
      ['add', undefined, 4, '\treturn a + b'],
      ['add', undefined, 5, '\t// fixed'],
      ['hunk', undefined, undefined, '@@ -10,2 +11,2 @@ func Sub'],
      ['ctx', 10, 11, 'x'],
      ['del', 11, undefined, 'y'],
      ['add', undefined, 12, 'z'],
      ['note', undefined, undefined, '\\ No newline at end of file'],
    ])
  })

  it('keeps a removed line that looks like a file header inside a hunk', () => {
    const rows = diffRows('@@ -1 +1 @@\n--- x\n+++ y\n')
    expect(rows.map((r) => r.kind)).toEqual(['hunk', 'del', 'add'])
    expect(rows[1].text).toBe('-- x')
  })

  it('counts added and removed lines', () => {
    expect(diffStat(diff)).toEqual({ added: 3, removed: 2 })
    expect(diffStat('')).toEqual({ added: 0, removed: 0 })
  })
})
