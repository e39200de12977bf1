import { describe, expect, it } from 'vitest'
import { relativeTime } from './relative-time'

describe('relativeTime', () => {
  const now = new Date('2026-11-22T12:00:00Z')
  it.each([
    ['2026-11-22T11:59:58Z', 'just now'],
    ['2026-11-22T11:59:30Z', '30 s ago'],
    ['2026-11-22T11:55:00Z', '5 min ago'],
    ['2026-11-22T09:00:00Z', '3 h ago'],
  ])('%s is %s', (t, want) => expect(relativeTime(t, now)).toBe(want))
})
