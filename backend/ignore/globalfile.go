package ignore

// GlobalExcludesFile is the file git reads the user's global excludes from (core.excludesFile, or git's default),
// for a caller that runs git without the user's configuration and passes the rules on itself.
func GlobalExcludesFile() string { return globalExcludesFile() }
