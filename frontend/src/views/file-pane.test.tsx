// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProjectBridge, ReadFileResult } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { held } from '../test/held'
import { FilePane } from './file-pane'
import type { Target } from './workbench'
import type { ChangeFeed, ChangeListener } from '../stores/live-project'

vi.mock('../bridge', () => ({
  toBackendError: (e: unknown) => (e && typeof e === 'object' && 'code' in e ? e : { code: 'internal', message: String(e) }),
}))
// The editor is a plain text box: what the pane hands it is what the user would see, and typing in it edits.
vi.mock('../components/code-viewer', () => ({
  CodeViewer: ({ text, onEdit, onSave }: { text: string; onEdit?: (t: string) => void; onSave?: () => void }) => (
    <textarea data-testid="editor" value={text} onChange={(e) => onEdit?.(e.target.value)} onKeyDown={(e) => e.key === 's' && e.ctrlKey && onSave?.()} />
  ),
}))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const fileOf = (path: string, content: string): ReadFileResult => ({ path, exists: true, content, size: content.length, total_lines: 1, start_line: 1, end_line: 1, truncated: false, line_ending: 'lf' })

// disk is the project as the stand-in backend has it; a write waits in held until the test answers or fails it.
function backend(disk: Record<string, string>) {
  const writes: { path: string; content: string; answer: () => void; fail: (e: unknown) => void }[] = []
  const userCall = (name: string, args: Record<string, unknown>) => {
    const path = args.path as string
    if (name === 'read_file') return path in disk ? Promise.resolve(fileOf(path, disk[path])) : Promise.reject({ code: 'not_found', message: path })
    if (name === 'write_file') {
      const write = held<unknown>()
      const content = args.content as string
      const answer = () => {
        disk[path] = content
        write.resolve({ path, backup: 'b'.repeat(40) })
      }
      writes.push({ path, content, answer, fail: write.reject })
      return write.promise
    }
    return Promise.reject(new Error(`unexpected ${name}`))
  }
  return { held: writes, bridge: { workspace: 'w', userCall } as unknown as ProjectBridge }
}

let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
})

// settle lets what is on its way land (a save hashes the text first, with the platform's digest, off the microtasks).
async function settle() {
  for (let i = 0; i < 5; i++) await act(() => new Promise((r) => setTimeout(r, 0)))
}


// changed tells the pane, as the watcher does, that path changed on disk.
const listeners = new Set<ChangeListener>()
const feed: ChangeFeed = {
  subscribe: (l) => {
    listeners.add(l)
    return () => listeners.delete(l)
  },
}
const changed = (path: string) => act(() => listeners.forEach((l) => l([{ path, op: 'write' }])))

function mount(bridge: ProjectBridge) {
  const host = document.createElement('div')
  root = createRoot(host)
  const show = (target: Target) =>
    act(() =>
      root!.render(
        <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
          <FilePane root="/p" target={target} feed={feed} />
        </ProjectScopeContext.Provider>,
      ),
    )
  return { host, show }
}

// openA shows a.txt of the disk given, read, in a pane mounted over a stand-in backend.
async function openA(disk: Record<string, string>) {
  const { held, bridge } = backend(disk)
  const { host, show } = mount(bridge)
  show({ rel: 'a.txt', seq: 1 })
  await settle()
  return { held, host, show }
}

function type(host: HTMLElement, text: string) {
  const box = host.querySelector<HTMLTextAreaElement>('[data-testid="editor"]')!
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(box, text)
    box.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

// startSave types text into the editor, clicks Save and waits until that save reached the backend: one more write
// held than before, and no other.
async function startSave(host: HTMLElement, held: unknown[], text: string) {
  const n = held.length + 1
  type(host, text)
  act(() => host.querySelector<HTMLButtonElement>('[data-testid="file-save"]')!.click())
  for (let i = 0; i < 200 && held.length < n; i++) await act(() => new Promise((r) => setTimeout(r, 5)))
  expect(held).toHaveLength(n)
}

const editor = (host: HTMLElement) => host.querySelector<HTMLTextAreaElement>('[data-testid="editor"]')?.value
const name = (host: HTMLElement) => host.querySelector('[data-testid="file-name"]')?.textContent

describe('FilePane', () => {
  it("shows the file clicked while another's save was on its way, not the saved one's text", async () => {
    const { held, host, show } = await openA({ '/p/a.txt': 'alpha', '/p/b.txt': 'bravo' })
    await startSave(host, held, 'alpha edited')
    show({ rel: 'b.txt', seq: 2 })
    await settle()
    expect(editor(host)).toBe('bravo')
    held[0].answer() // a.txt's save lands after b.txt is shown
    await settle()
    expect(name(host)).toBe('b.txt')
    expect(editor(host)).toBe('bravo')
    expect(host.querySelector('[data-testid="file-saved"]')).toBeNull()
    // An edit of b.txt saves b.txt's text over b.txt, checked against b.txt as read.
    await startSave(host, held, 'bravo edited')
    expect(held[1]).toMatchObject({ path: '/p/b.txt', content: 'bravo edited' })
  })

  it("says a save that failed after another file was opened as that file's, without a conflict over the new one", async () => {
    const { held, host, show } = await openA({ '/p/a.txt': 'alpha', '/p/b.txt': 'bravo' })
    await startSave(host, held, 'alpha edited')
    show({ rel: 'b.txt', seq: 2 })
    await settle()
    held[0].fail({ code: 'stale_file', message: 'a.txt changed' })
    await settle()
    expect(host.querySelector('[data-testid="file-conflict"]')).toBeNull()
    expect(editor(host)).toBe('bravo')
    expect(host.querySelector('[data-testid="file-save-lost"]')?.textContent).toContain('a.txt was not saved: a.txt changed')
  })

  it('keeps what was typed while a save was on its way as unsaved edits, and knows its own write on disk', async () => {
    const disk = { '/p/a.txt': 'alpha' }
    const { held, host } = await openA(disk)
    await startSave(host, held, 'alpha 1')
    type(host, 'alpha 12')
    held[0].answer()
    await settle()
    expect(host.querySelector('[data-testid="file-dirty"]')).not.toBeNull()
    // The watcher reports the save's own write: no conflict, the file on disk is what was saved.
    changed('a.txt')
    await settle()
    expect(host.querySelector('[data-testid="file-conflict"]')).toBeNull()
    // A write by another program while the edits are unsaved is one.
    disk['/p/a.txt'] = 'alpha from elsewhere'
    changed('a.txt')
    await settle()
    expect(host.querySelector('[data-testid="file-conflict"]')).not.toBeNull()
  })
})
