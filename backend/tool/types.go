package tool

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// StringList accepts one string or a list of strings, because models pass either for "patterns"-like fields. Its
// schema says a list of strings, the one form every client's validator takes without a warning (a type array such
// as ["string","array"] makes Ajv's strict mode, in Gemini CLI and Qwen Code, warn at every start); a single string
// is still accepted (Tool.Validate).
type StringList []string

// UnmarshalJSON accepts "x" as ["x"].
func (l *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*l = StringList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// typeSchemas are the schemas of the package's own types, given to schema inference.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[StringList](): {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	reflect.TypeFor[time.Time]():  {Type: "string", Format: "date-time"},
}
