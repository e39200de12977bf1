import { describe, expect, test } from 'vitest'
import { ruleWords } from './rule-words'

describe('permission rules read as words', () => {
  test.each([
    [{ action: 'allow', tool: 'exec_shell', command: 'go test' }, { action: 'Allow', kind: 'Run a command', what: 'go test' }],
    [{ action: 'ask', tool: 'exec_shell', command: '' }, { action: 'Ask first', kind: 'Run a command', what: 'any command' }],
    [{ action: 'deny', tool: 'patch_file', command: '' }, { action: 'Never', kind: 'Edit a file', what: '' }],
    [{ action: 'allow', tool: 'write_file', command: '' }, { action: 'Allow', kind: 'Write a file', what: '' }],
    [{ action: 'deny', tool: 'restore_snapshot', command: '' }, { action: 'Never', kind: 'Restore a snapshot', what: '' }],
    [{ action: 'ask', tool: 'some_new_tool', command: '' }, { action: 'Ask first', kind: 'some_new_tool', what: '' }],
  ] as const)('%j', (rule, want) => expect(ruleWords({ ...rule })).toEqual(want))
})
