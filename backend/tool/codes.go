package tool

// CodeInfo is a stable error code and what it says, for the faces that show codes to people.
type CodeInfo struct {
	Code    string
	Meaning string
}

// Codes lists every code the backend returns, once: the frontend's list (frontend/src/bridge/error-codes.ts) is
// generated from it, and a test keeps the two equal, so the window can give each a title for people and a new code
// cannot go without one.
var Codes = []CodeInfo{
	{CodeNotFound, "the file, folder, snapshot or job does not exist"},
	{CodePermissionDenied, "refused: by the system, a rule of the project, or the user"},
	{CodeOutsideRoot, "the path leads outside the project"},
	{CodeNotADirectory, "a file where a folder was expected"},
	{CodeIsADirectory, "a folder where a file was expected"},
	{CodeInvalidArgument, "a call's arguments are wrong"},
	{CodeNoMatch, "a patch's search text is not in the file"},
	{CodeMultipleMatches, "a patch's search text is in the file more than once"},
	{CodeStaleFile, "the file changed on disk since it was read"},
	{CodeNotRead, "the file must be read before it is edited"},
	{CodeBinaryFile, "the file is not text"},
	{CodeTooLarge, "the file or result is over a size limit"},
	{CodeNoProject, "no project is open"},
	{CodeUnknownTool, "no tool by that name"},
	{CodeNotAllowed, "the program is not on the project's allowlist"},
	{CodeBackupFailed, "the snapshot before the change failed, so nothing changed"},
	{CodeNoUser, "a question for the user where there is no one to answer"},
	{CodeUnsupportedMedia, "the file is of a kind this model or tool cannot take"},
	{CodeFetchFailed, "a web page or a search could not be fetched"},
	{CodeNotConfigured, "an optional tool that needs a setting the user has not made"},
	{CodeEncryptedFile, "the file is encrypted and needs a password"},
	{CodeDamagedFile, "the file is damaged: its format cannot be parsed"},
	{CodeNotARepository, "the project is not the top folder of a git repository"},
	{CodeNoCommit, "the repository has no commit yet"},
	{CodeBranchExists, "a branch of that name already exists"},
	{CodeConflict, "the main checkout changed the same files, so nothing was applied"},
	{CodeServerFailed, "another MCP server could not start, ended, or did not answer in time"},
	{CodeToolFailed, "another MCP server's tool reported a failure"},
	{CodeInternal, "Rooted itself failed"},
}
