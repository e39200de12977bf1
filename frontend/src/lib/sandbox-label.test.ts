import { describe, expect, it } from 'vitest'
import { sandboxLabel } from './sandbox-label'

describe('sandboxLabel', () => {
  it('names an active sandbox and what it allows', () => {
    const l = sandboxLabel({ active: true, kind: 'landlock', level: 7, writable: ['/p', '/tmp/x'], readable: ['/usr', '/etc (less shadow)'], network: false })
    expect(l).toEqual({ text: 'landlock 7', title: 'landlock ABI 7: writes only to /p, /tmp/x; reads only those and /usr, /etc (less shadow); no network', ok: true })
  })
  it('says plainly when there is none', () => {
    const l = sandboxLabel({ active: false, network: true, reason: 'no OS sandbox on darwin' })
    expect(l.text).toBe('no sandbox')
    expect(l.title).toBe('no OS sandbox on darwin')
    expect(l.ok).toBe(false)
  })
})
