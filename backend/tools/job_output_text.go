package tools

import (
	"encoding/json"
	"fmt"

	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/tool"
)

// jobOutputOut is a job's output as job_output returns it.
type jobOutputOut jobs.Output

// ModelTextWithin is the generic text form with the output cut at a line's end within budget bytes and next moved
// back to where the cut is, so that reading on with since=next continues exactly there.
func (r jobOutputOut) ModelTextWithin(budget int) string {
	text := r.text()
	if budget <= 0 || len(text) <= budget {
		return text
	}
	cut := r
	cut.Output = tool.Head(r.Output, max(0, len(r.Output)-(len(text)-budget)-256))
	cut.Next = r.Next - int64(len(r.Output)-len(cut.Output))
	return cut.text() + fmt.Sprintf("\n(output cut at offset %d, to this client's limit of %d bytes a result: read on with since %d)", cut.Next, budget, cut.Next)
}

func (r jobOutputOut) text() string {
	b, err := json.Marshal(r)
	if err != nil {
		return err.Error()
	}
	return tool.Generic(b)
}
