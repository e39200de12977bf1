import { describe, expect, it } from 'vitest'
import { keepSlot, projectState } from './slots'

describe('keepSlot', () => {
  const idle = { running: false, loaded: true }
  it.each([
    ['the pane put in view', 'a', 'a', idle, '', '', true],
    ['a pane whose turn runs', 'a', 'b', { running: true, loaded: true }, 'working', '', true],
    ['a pane waiting for an approval', 'a', 'b', idle, 'waiting', '', true],
    ['a pane that finished out of sight', 'a', 'b', idle, 'done', '', true],
    ['a pane that failed out of sight', 'a', 'b', idle, 'failed', '', true],
    ['a pane whose save fails', 'a', 'b', idle, '', 'disk full', true],
    ['a pane still loading its conversation', 'a', 'b', { running: false, loaded: false }, '', '', true],
    ['a pane not yet reported', 'a', 'b', undefined, undefined, undefined, true],
    ['an idle, seen, saved pane out of view', 'a', 'b', idle, '', '', false],
  ] as const)('%s: %s', (_, key, shown, look, state, unsaved, want) => {
    expect(keepSlot(key, shown, look, state, unsaved)).toBe(want)
  })
})

describe('projectState', () => {
  it.each([
    [['working', 'waiting', 'done'], true, 'waiting'],
    [['working', 'waiting'], false, 'waiting'],
    [['done', 'working'], true, 'working'],
    [['done', 'failed', ''], false, 'failed'],
    [['done', ''], false, 'done'],
    [['done', 'failed'], true, ''],
    [[], false, ''],
  ] as const)('%j, project shown %s: %s', (states, shown, want) => {
    expect(projectState([...states], shown)).toBe(want)
  })
})
