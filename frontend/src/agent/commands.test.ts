import { describe, expect, it } from 'vitest'
import { commandAt, commandOptions, expandBody, expandCommand, parseCommand } from './commands'

describe('commands', () => {
  it('reads /name and its arguments, and nothing else', () => {
    expect(parseCommand('/review src/a.go  and b')).toEqual({ name: 'review', args: 'src/a.go  and b' })
    expect(parseCommand('/review')).toEqual({ name: 'review', args: '' })
    expect(parseCommand('please /review')).toBeNull()
    expect(parseCommand('/ review')).toBeNull()
    expect(parseCommand('/etc/passwd is odd')).toBeNull()
  })

  it('puts the arguments where $ARGUMENTS and $1 say, or at the end', () => {
    const cmd = { name: 'review', kind: 'command' as const, path: '.agents/commands/review.md' }
    expect(expandBody({ ...cmd, body: 'Review $ARGUMENTS for bugs.\n' }, 'src/a.go')).toBe('Review src/a.go for bugs.')
    expect(expandBody({ ...cmd, body: 'Compare $1 with $2.' }, 'a.go b.go')).toBe('Compare a.go with b.go.')
    expect(expandBody({ ...cmd, body: 'Review the change.' }, 'focus on tests')).toBe('Review the change.\n\nArguments: focus on tests')
    expect(expandBody({ ...cmd, body: 'Review $ARGUMENTS.' }, '')).toBe('Review .')
    const skill = expandBody({ name: 'deploy', kind: 'skill', path: '.agents/skills/deploy/SKILL.md', body: 'Run make deploy.\n' }, 'to staging')
    expect(skill).toBe('Use the skill deploy (.agents/skills/deploy/SKILL.md):\n\nRun make deploy.\n\nThe task: to staging')
  })

  it('expands a command through the backend, and leaves other text alone', async () => {
    const asked: string[] = []
    const load = async (name: string) => {
      asked.push(name)
      return { name, kind: 'command' as const, path: 'p', body: 'Review $ARGUMENTS.' }
    }
    expect(await expandCommand('/review a.go', load)).toEqual({ content: 'Review a.go.', command: 'review' })
    expect(await expandCommand('fix the bug', load)).toEqual({ content: 'fix the bug' })
    expect(asked).toEqual(['review'])
    await expect(expandCommand('/nope', () => Promise.reject(new Error('not_found')))).rejects.toThrow('not_found')
  })

  it('completes the name being typed at the start of the box', () => {
    expect(commandAt('/rev', 4)).toEqual({ start: 0, query: 'rev' })
    expect(commandAt('/review a', 9)).toBeNull()
    expect(commandAt('x /rev', 6)).toBeNull()
    expect(commandOptions('re', [{ name: 'review' }, { name: 'prepare' }], [{ name: 'release' }, { name: 'review' }])).toEqual(['review', 'release', 'prepare'])
  })
})
