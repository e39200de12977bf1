package toolcache

// dirIdentity is "" on Windows: the id stays the one first stored for the path.
func dirIdentity(string) string { return "" }
