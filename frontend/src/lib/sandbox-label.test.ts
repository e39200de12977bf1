import { describe, expect, it } from 'vitest'
import { sandboxLabel } from './sandbox-label'

describe('sandboxLabel', () => {
  it('names an active sandbox and what it allows', () => {
    const l = sandboxLabel({ active: true, kind: 'landlock', level: 7, writable: ['/p', '/tmp/x'], readable: ['/usr', '/etc (less shadow)'], network: false })
    expect(l).toEqual({ text: 'landlock 7', title: 'landlock ABI 7: writes only to /p, /tmp/x; reads only those and /usr, /etc (less shadow); no network', ok: true })
  })
  it('says how what tools outside run later was kept', () => {
    const ro = sandboxLabel({ active: true, kind: 'landlock', level: 7, network: false, protection: 'read-only' })
    expect(ro.title).toMatch(/hooks, editor task files and dependency folders read-only$/)
    const watched = sandboxLabel({ active: true, kind: 'landlock', level: 7, network: false, protection: 'watched (weaker)' })
    expect(watched.title).toMatch(/only watched and put back \(weaker: no mount namespace here\)$/)
  })
  it('says plainly when there is none', () => {
    const l = sandboxLabel({ active: false, network: true, reason: 'no OS sandbox on darwin' })
    expect(l.text).toBe('no sandbox')
    expect(l.title).toBe('no OS sandbox on darwin')
    expect(l.ok).toBe(false)
  })
})
