// Every error code a person can meet, in words: a title saying what happened, and at most one action that fixes
// it. The raw code and the backend's message stay under Details. lib/error-titles.test.ts checks the table covers
// every code the backend declares (backend/tool/error.go), the README lists, and the window makes itself.

export type ErrorActionKind = 'retry' | 'open-settings'

export interface ErrorTitle {
  title: string
  action?: { kind: ErrorActionKind; label: string }
}

const settings = (label: string) => ({ kind: 'open-settings' as const, label })
const retry = { kind: 'retry' as const, label: 'Retry' }

export const errorTitles: Record<string, ErrorTitle> = {
  not_found: { title: 'That file or folder does not exist' },
  permission_denied: { title: 'Not allowed here', action: settings('Open permissions') },
  outside_root: { title: 'Outside the project folder: Rooted never goes there' },
  not_a_directory: { title: 'That is a file, not a folder' },
  is_a_directory: { title: 'That is a folder, not a file' },
  invalid_argument: { title: 'Something in the request is not valid' },
  no_match: { title: 'The text to replace is not in the file' },
  multiple_matches: { title: 'The text to replace is in the file more than once' },
  stale_file: { title: 'The file changed on disk since it was read' },
  not_read: { title: 'A file is read before it is edited' },
  binary_file: { title: 'A binary file, not text' },
  too_large: { title: 'Too large to handle at once' },
  no_project: { title: 'No project is open' },
  unknown_tool: { title: 'No tool of that name' },
  command_not_allowed: { title: "That program is not on this project's list", action: settings('Open the list of programs') },
  backup_failed: { title: 'The snapshot before the change failed, so nothing was changed', action: retry },
  unsupported_media: { title: 'A kind of file the model cannot be shown' },
  fetch_failed: { title: 'The page or the search could not be fetched', action: retry },
  not_configured: { title: 'Not turned on: it needs a setting', action: settings('Open Settings') },
  encrypted_file: { title: 'The file is encrypted' },
  damaged_file: { title: 'The file is damaged and cannot be read' },
  no_user: { title: 'There is nobody here to answer the question' },
  not_a_repository: { title: 'Not the top folder of a git repository: no worktree can be made' },
  no_commit: { title: 'The repository has no commit yet to branch from' },
  branch_exists: { title: 'A branch of that name already exists' },
  conflict: { title: 'The main checkout changed the same files: nothing was applied' },
  server_failed: { title: 'The MCP server did not answer', action: settings('Open MCP servers') },
  tool_failed: { title: "The MCP server's tool reported a failure" },
  internal: { title: 'Something went wrong inside Rooted', action: retry },
  // Made by the window, not the backend.
  denied_by_user: { title: 'You said no' },
  plan_mode: { title: 'Plan mode is on: nothing changes until Start' },
  interrupted: { title: 'Stopped before it finished' },
  no_answer: { title: 'You did not answer the question' },
}

// errorTitle is the table's entry for code; a code it lacks (a newer backend) still gets words, never a bare code.
export function errorTitle(code: string): ErrorTitle {
  return errorTitles[code] ?? { title: `Failed (${code.replaceAll('_', ' ')})` }
}
