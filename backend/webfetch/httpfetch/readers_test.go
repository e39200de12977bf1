package httpfetch_test

// The tests turn pages into Markdown in their own process, as rooted-reader does; the other binaries leave it to
// rooted-reader, which package readerproc's tests run.
import _ "github.com/rooted-dev/rooted/backend/webfetch/pagemd"
