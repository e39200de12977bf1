// The worktree calls (app/worktrees.go): each takes the id of an open project and acts on the worktrees of its
// main checkout, whether that project is the main checkout or one of its worktrees.
import * as Worktrees from '../../wailsjs/go/app/Worktrees'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { wrap } from './wrap'
import { EventToolOutput, type ToolOutput } from './events'
import type { Project, Worktree, WorktreeApplied } from './types'

// WorktreeOpened is a worktree made (or chosen) and opened as a project.
export interface WorktreeOpened {
  worktree: Worktree
  project: Project
}

let nextStart = 0

// startWorktree makes a worktree named after the conversation and opens it as a project; onOutput hears what it
// does as it does it (status lines, then the setup command's stdout and stderr).
export function startWorktree(ws: string, name: string, onOutput: (o: ToolOutput) => void): Promise<WorktreeOpened> {
  const id = `worktree-${Date.now().toString(36)}-${(nextStart++).toString(36)}`
  const off = EventsOn(EventToolOutput, (o: ToolOutput) => {
    if (o.id === id) onOutput(o)
  })
  return wrap(async () => (await Worktrees.Start(ws, name, id)) as unknown as WorktreeOpened).finally(off)
}

// worktrees lists the worktrees of project ws's main checkout, each with how many files it changed.
export const worktrees = (ws: string): Promise<Worktree[]> => wrap(async () => ((await Worktrees.List(ws)) ?? []) as unknown as Worktree[])

// worktreeOf is the worktree project ws is, with its changed files counted; null for a main checkout.
export const worktreeOf = (ws: string): Promise<Worktree | null> => wrap(async () => ((await Worktrees.Of(ws)) ?? null) as unknown as Worktree | null)

// openWorktree opens an existing worktree as a project (one open already is returned).
export const openWorktree = (ws: string, name: string): Promise<WorktreeOpened> => wrap(async () => (await Worktrees.Open(ws, name)) as unknown as WorktreeOpened)

// applyWorktree brings the worktree's changes into the main checkout as one change; a conflict (BackendError
// 'conflict', details.conflicts) names the files and changes nothing.
export const applyWorktree = (ws: string, name: string): Promise<WorktreeApplied> => wrap(async () => (await Worktrees.Apply(ws, name)) as unknown as WorktreeApplied)

// commitWorktree commits the worktree's changes on its branch; '' when there was nothing to commit.
export const commitWorktree = (ws: string, name: string, message: string): Promise<string> => wrap(() => Worktrees.Commit(ws, name, message))

// discardWorktree removes the worktree and its branch; where it was open as a project that project is closed and
// the main checkout opened and returned.
export const discardWorktree = (ws: string, name: string): Promise<Project | null> => wrap(async () => ((await Worktrees.Discard(ws, name)) ?? null) as unknown as Project | null)
