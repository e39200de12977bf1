import { describe, expect, test } from 'vitest'
import { restorePlan } from './restore-plan'

// Diffs as git prints them for diff_snapshot: the snapshot on the a/ side, the present on the b/ side.
const changed = 'diff --git a/src/main.go b/src/main.go\nindex 1111111..2222222 100644\n--- a/src/main.go\n+++ b/src/main.go\n@@ -1 +1 @@\n-a\n+b\n'
const made = 'diff --git a/made by agent.txt b/made by agent.txt\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n+++ b/made by agent.txt\n@@ -0,0 +1 @@\n+x\n'
const gone = 'diff --git a/notes.txt b/notes.txt\ndeleted file mode 100644\nindex 4444444..0000000\n--- a/notes.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-keep me\n'
const binary = 'diff --git a/logo.png b/logo.png\nindex 5555555..6666666 100644\nBinary files a/logo.png and b/logo.png differ\n'
const renamed = 'diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to new.txt\n'
const quoted = 'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"\nindex 1..2 100644\n--- "a/caf\\303\\251.txt"\n+++ "b/caf\\303\\251.txt"\n'

describe('the files a restore will change, read from the snapshot’s diff against now', () => {
  test.each([
    ['a file changed since is put back', changed, [{ path: 'src/main.go', change: 'put back' }]],
    ['a file made since is removed (a name with spaces)', made, [{ path: 'made by agent.txt', change: 'removed' }]],
    ['a file deleted since comes back', gone, [{ path: 'notes.txt', change: 'brought back' }]],
    ['a binary file is named too', binary, [{ path: 'logo.png', change: 'put back' }]],
    ['a rename is undone as a removal and a return', renamed, [{ path: 'new.txt', change: 'removed' }, { path: 'old.txt', change: 'brought back' }]],
    ['a quoted name is read as the file’s name', quoted, [{ path: 'café.txt', change: 'put back' }]],
    ['nothing changed since', '', []],
  ])('%s', (_, diff, want) => expect(restorePlan(diff)).toEqual(want))

  test('several files, in the diff’s order', () => {
    expect(restorePlan(changed + made + gone).map((c) => `${c.change}: ${c.path}`)).toEqual(['put back: src/main.go', 'removed: made by agent.txt', 'brought back: notes.txt'])
  })
})
