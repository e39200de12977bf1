package sandbox

// selfDenied are the system calls a process confining itself may not make (filterOpts.self), on arm64.
var selfDenied = selfDeniedCommon
