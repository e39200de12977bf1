// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { stepLimit } from './step-limit'

const saved = vi.hoisted(() => ({ limit: 0, fail: false }))
vi.mock('../bridge', () => ({
  loadStepLimit: () => (saved.fail ? Promise.reject(new Error('settings.json: unreadable')) : Promise.resolve(saved.limit || 100)),
  saveStepLimit: (n: number) => {
    saved.limit = n
    return Promise.resolve(n)
  },
}))

beforeEach(() => {
  saved.limit = 0
  saved.fail = false
  localStorage.clear()
})

describe('stepLimit', () => {
  it('is the setting, 100 until set', async () => {
    expect(await stepLimit()).toBe(100)
    saved.limit = 30
    expect(await stepLimit()).toBe(30)
  })

  it("moves a limit the window kept in its local storage to the settings, once", async () => {
    localStorage.setItem('rooted.agent.stepLimit', '25')
    expect(await stepLimit()).toBe(25)
    expect(saved.limit).toBe(25)
    expect(localStorage.getItem('rooted.agent.stepLimit')).toBeNull()
    saved.limit = 60 // changed in Settings later: the old value does not come back
    expect(await stepLimit()).toBe(60)
  })

  it('is the default when the settings cannot be read, so a request still runs', async () => {
    saved.fail = true
    expect(await stepLimit()).toBe(100)
  })
})
