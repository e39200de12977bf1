import { describe, expect, it } from 'vitest'
import { matches } from './shortcuts'

const key = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods })

describe('shortcut matching', () => {
  it('matches Ctrl (or Cmd) with the key, and nothing else', () => {
    expect(matches(key('n', { ctrlKey: true }), 'Ctrl+N')).toBe(true)
    expect(matches(key('n', { metaKey: true }), 'Ctrl+N')).toBe(true)
    expect(matches(key('n'), 'Ctrl+N')).toBe(false)
    expect(matches(key('n', { ctrlKey: true, altKey: true }), 'Ctrl+N')).toBe(false)
    expect(matches(key('N', { ctrlKey: true, shiftKey: true }), 'Ctrl+N')).toBe(false)
  })
  it('tells Ctrl+Shift+F from Ctrl+F', () => {
    expect(matches(key('F', { ctrlKey: true, shiftKey: true }), 'Ctrl+Shift+F')).toBe(true)
    expect(matches(key('f', { ctrlKey: true }), 'Ctrl+Shift+F')).toBe(false)
  })
  it('reads punctuation and Esc', () => {
    expect(matches(key(',', { ctrlKey: true }), 'Ctrl+,')).toBe(true)
    expect(matches(key('/', { ctrlKey: true }), 'Ctrl+/')).toBe(true)
    expect(matches(key('Escape'), 'Esc')).toBe(true)
    expect(matches(key('Escape', { ctrlKey: true }), 'Esc')).toBe(false)
  })
})
