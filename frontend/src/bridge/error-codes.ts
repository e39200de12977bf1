// The backend's stable error codes, generated from backend/tool/codes.go by
// `go test ./backend/tool -run TestFrontendErrorCodes -update-codes`: do not edit by hand.
export const BACKEND_ERROR_CODES = {
  not_found: 'the file, folder, snapshot or job does not exist',
  permission_denied: 'refused: by the system, a rule of the project, or the user',
  outside_root: 'the path leads outside the project',
  not_a_directory: 'a file where a folder was expected',
  is_a_directory: 'a folder where a file was expected',
  invalid_argument: 'a call\'s arguments are wrong',
  no_match: 'a patch\'s search text is not in the file',
  multiple_matches: 'a patch\'s search text is in the file more than once',
  stale_file: 'the file changed on disk since it was read',
  not_read: 'the file must be read before it is edited',
  binary_file: 'the file is not text',
  too_large: 'the file or result is over a size limit',
  no_project: 'no project is open',
  unknown_tool: 'no tool by that name',
  command_not_allowed: 'the program is not on the project\'s allowlist',
  backup_failed: 'the snapshot before the change failed, so nothing changed',
  no_user: 'a question for the user where there is no one to answer',
  unsupported_media: 'the file is of a kind this model or tool cannot take',
  fetch_failed: 'a web page could not be fetched',
  encrypted_file: 'the file is encrypted and needs a password',
  damaged_file: 'the file is damaged: its format cannot be parsed',
  not_a_repository: 'the project is not the top folder of a git repository',
  no_commit: 'the repository has no commit yet',
  branch_exists: 'a branch of that name already exists',
  conflict: 'the main checkout changed the same files, so nothing was applied',
  server_failed: 'another MCP server could not start, ended, or did not answer in time',
  tool_failed: 'another MCP server\'s tool reported a failure',
  internal: 'Rooted itself failed',
} as const

export type BackendErrorCode = keyof typeof BACKEND_ERROR_CODES
