// Result shapes of the backend's tools, as their Go output structs marshal them.

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other'

export interface DirEntry {
  name: string
  kind: EntryKind
  size: number
  target?: string
  target_kind?: EntryKind
  ignored?: boolean
}

export interface ListDirectoryResult {
  path: string
  entries: DirEntry[]
  total: number
  limit: number
  truncated: boolean
}

export interface ReadFileResult {
  path: string
  exists: boolean
  content: string
  size: number
  total_lines: number
  start_line: number
  end_line: number
  truncated: boolean
  line_ending: 'lf' | 'crlf' | 'mixed' | 'none'
}

export interface WorkingDirectory {
  root: string
  name: string
  cwd: string
  cwd_relative: string
}

// Project is an open project; id names its workspace in the backend (the bridge passes it on every call).
export interface Project {
  id: string
  root: string
  name: string
  cwd: string
  cwd_relative: string
  worktree?: ProjectWorktree // set when the project is a worktree Rooted made of another
}

// ProjectWorktree names the worktree a project is: its name (for the worktree calls), branch and main checkout.
export interface ProjectWorktree {
  name: string
  branch: string
  main: string // the main checkout's folder
  main_name: string
}

// Worktree is a conversation's checkout (backend/worktree): changed_files counts the files that differ from its
// base, committed on its branch or not (-1 when its folder is gone).
export interface Worktree {
  name: string
  branch: string
  path: string
  project: string
  base: string
  created: string
  changed_files: number
  setup?: { command: string[]; exit_code: number; output?: string; error?: string }
}

// WorktreeApplied is what Apply brought into the main checkout: snapshot is the main checkout before it
// (restore_snapshot of it undoes the whole change).
export interface WorktreeApplied {
  worktree: string
  snapshot?: string
  changed: string[]
  same?: string[]
  merged?: string[] // of changed, those the main checkout had changed too, merged line by line
}

// WorktreeConflict is a file Apply refused to change (details.conflicts of a conflict error).
export interface WorktreeConflict {
  path: string
  reason: string // says where the lines clash on each side, when they do
  hunks?: { base: WorktreeLines; main: WorktreeLines; worktree: WorktreeLines }[]
}

// WorktreeLines are lines start..start+count-1 of a file (count 0: the place before line start).
export interface WorktreeLines {
  start: number
  count: number
}

export interface RecentProject {
  path: string
  name: string
  opened_at: string
}

export interface ToolSpec {
  name: string
  title: string
  description: string
  input_schema: Record<string, unknown>
  read_only: boolean
  destructive: boolean
  idempotent: boolean
}

export interface SearchMatch {
  path: string
  line: number
  column: number
  text: string
  before?: string[]
  after?: string[]
}

export interface SearchResult {
  query: string
  path: string
  matches?: SearchMatch[]
  files?: { path: string; count: number }[]
  total: number
  files_searched: number
  limit: number
  truncated: boolean
}

export interface SandboxInfo {
  active: boolean
  kind?: string
  level?: number
  readable?: string[]
  writable?: string[]
  network: boolean
  reason?: string
  processes?: string
  // protection: how what tools outside run later (.git/config, hooks, .vscode, node_modules) was kept during the
  // command: 'read-only' (bound read-only), or 'watched (weaker)' (put back as it changed: no mount namespace).
  protection?: string
}

export interface ExecResult {
  command: string[]
  cwd: string
  stdout: string
  stderr: string
  exit_code: number
  timed_out: boolean
  cancelled: boolean
  duration_ms: number
  truncated: boolean
  bytes: number
  sandbox: SandboxInfo
  hint?: string
  // git_restored: what the command changed that git, editors or hooks run later, and Rooted put back.
  git_restored?: string[]
  // dependencies_changed: the packages of node_modules, .venv, ... the command added, removed or changed.
  dependencies_changed?: string[]
  // outputs_changed: the build outputs (target/, dist/, build/, .next/) the command added or changed, which
  // runners execute as they are.
  outputs_changed?: string[]
  // job, when the command runs on in the background: its id, and the offset to read its output on from.
  job?: { id: string; running: boolean; next: number }
  // network_refused: in allow-list mode, the hosts the proxy refused the command.
  network_refused?: string[]
  // network_unallowable: those of network_refused no allow rule would let through (a deny rule, an address
  // commands never reach, a name that is not plain): no card offers a rule for them.
  network_unallowable?: string[]
  // network_declined: where the user, asked while the command ran, declined: host:port (a bare host in results
  // saved before answers went by port).
  network_declined?: string[]
}

export interface Snapshot {
  id: string
  time: string
  reason: string
  files_changed: number
  /** Set on a partial snapshot: only these paths were recorded (an edit made while the first snapshot ran). */
  paths?: string[]
}

export interface SnapshotLogEntry {
  time: string
  action: 'backup' | 'restore'
  id: string
  reason?: string
  files?: number
  paths?: string[]
  backup?: string
}

export interface RestoreResult {
  restored: string
  backup: string
  written: string[]
  removed: string[]
  git_rebuilt?: boolean // .git was gone or broken and was rebuilt from the snapshot's record of the refs
}

// ToolResults maps each tool name to its result type, so callTool is typed by name.
export interface ToolResults {
  get_working_directory: WorkingDirectory
  change_working_directory: { success: boolean; current_directory: string; relative: string; previous_directory: string; message: string }
  list_directory: ListDirectoryResult
  read_file: ReadFileResult
  write_file: { path: string; size: number; created: boolean; backup?: string }
  patch_file: { path: string; matched: number; replaced: number; size: number; backup?: string }
  search_files: SearchResult
  exec_shell: ExecResult
  list_snapshots: { snapshots?: Snapshot[]; log?: SnapshotLogEntry[]; limit: number }
  diff_snapshot: { id: string; path?: string; diff: string; empty: boolean }
  restore_snapshot: RestoreResult
  find_files: { path: string; files: { path: string; size: number; mod_time: string }[]; total: number; limit: number; truncated: boolean }
}
