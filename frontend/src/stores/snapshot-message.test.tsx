// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SnapshotProgress } from '../bridge'
import { useSnapshotMessage } from './snapshot-message'

// The backend reports the first snapshot of every project opened; the test sends the reports.
const heard = vi.hoisted(() => ({ listeners: new Set<(p: SnapshotProgress) => void>() }))
vi.mock('../bridge', () => ({
  onSnapshotProgress: (f: (p: SnapshotProgress) => void) => {
    heard.listeners.add(f)
    return () => heard.listeners.delete(f)
  },
}))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const report = (p: Partial<SnapshotProgress> & Pick<SnapshotProgress, 'workspace' | 'state'>) =>
  act(() => heard.listeners.forEach((f) => f({ root: `/src/${p.workspace}`, elapsed_ms: 0, ...p })))

// Bar stands for the status bar: it shows the message, or nothing.
function Bar({ shown }: { shown: string | undefined }) {
  return <>{useSnapshotMessage(shown) ?? ''}</>
}
let root: Root | null = null
let host = document.createElement('div')
const show = (id: string | undefined) => act(() => root!.render(<Bar shown={id} />))
const bar = () => host.textContent

beforeEach(() => {
  vi.useFakeTimers()
  host = document.createElement('div')
  root = createRoot(host)
})
afterEach(() => {
  act(() => root?.unmount())
  root = null
  vi.useRealTimers()
})

describe('the status bar says where the first snapshot of the project shown is', () => {
  it("shows a project's message only while that project is shown, kept for when it is shown again", () => {
    show('a')
    report({ workspace: 'a', state: 'running' })
    expect(bar()).toBe('recording the first snapshot…')
    show('b') // another project, whose snapshot is done already
    expect(bar()).toBe('')
    report({ workspace: 'c', state: 'failed', error: 'git not found' }) // a project opened, not shown
    show('a')
    expect(bar()).toBe('recording the first snapshot…')
    show('c')
    expect(bar()).toBe('snapshots unavailable: git not found')
  })

  it("a finished snapshot's message goes after a while without taking another project's with it", () => {
    show('a')
    report({ workspace: 'a', state: 'done', files: 12, elapsed_ms: 1500 })
    expect(bar()).toBe('first snapshot: 12 files in 1.5 s')
    show('b')
    report({ workspace: 'b', state: 'running' })
    act(() => vi.advanceTimersByTime(5000))
    expect(bar()).toBe('recording the first snapshot…')
    show('a')
    expect(bar()).toBe('')
  })
})
