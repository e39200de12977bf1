import { describe, expect, it } from 'vitest'
import type { Project } from '../bridge'
import { railOrder } from './project-strip'

const project = (name: string, of?: string): Project => ({
  id: `${name}-id`,
  root: of ? `/cache/worktrees/${name}` : `/p/${name}`,
  name,
  cwd: '',
  cwd_relative: '.',
  worktree: of ? { name, branch: `rooted/${name}`, main: `/p/${of}`, main_name: of } : undefined,
})

describe('railOrder', () => {
  it('puts each worktree under its main checkout, in the order they were opened', () => {
    const list = [project('alpha'), project('beta'), project('fix', 'alpha'), project('docs', 'beta'), project('tests', 'alpha')]
    expect(railOrder(list).map((p) => p.name)).toEqual(['alpha', 'fix', 'tests', 'beta', 'docs'])
  })

  it('keeps the place of a worktree whose main checkout is not open, and loses no project', () => {
    const list = [project('fix', 'gone'), project('alpha'), project('tests', 'alpha')]
    expect(railOrder(list).map((p) => p.name)).toEqual(['fix', 'alpha', 'tests'])
  })
})
