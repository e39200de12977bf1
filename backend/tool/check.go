package tool

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// checkFields gives the messages a model can act on for the mistakes models make most: a missing, unknown, empty or
// wrongly typed field, at the top level or nested in objects and arrays of objects (named like "edits[1].search").
// Everything else falls through to full schema validation.
func checkFields(s *jsonschema.Schema, obj map[string]any) *Error {
	return checkObject(s, obj, "")
}

func checkObject(s *jsonschema.Schema, obj map[string]any, prefix string) *Error {
	// Unknown fields first: a typo ("pathh") is better named as itself than as the field it was meant to be.
	for _, short := range sortedKeys(obj) {
		if _, ok := s.Properties[short]; !ok {
			return &Error{
				Code: CodeInvalidArgument, Field: prefix + short,
				Message: fmt.Sprintf("unknown field %q; known fields: %s", prefix+short, strings.Join(propertyNames(s), ", ")),
			}
		}
	}
	for _, short := range s.Required {
		name := prefix + short
		if _, ok := obj[short]; !ok {
			return &Error{
				Code: CodeInvalidArgument, Field: name,
				Message: fmt.Sprintf("missing required field %q (%s)", name, typeName(s.Properties[short])),
			}
		}
	}
	for _, short := range sortedKeys(obj) {
		name := prefix + short
		prop := s.Properties[short]
		v := obj[short]
		if !typeMatches(prop, v) {
			return &Error{
				Code: CodeInvalidArgument, Field: name,
				Message: fmt.Sprintf("field %q must be %s, got %s", name, typeName(prop), describe(v)),
			}
		}
		if str, ok := v.(string); ok && len(prop.Enum) > 0 && !slices.Contains(prop.Enum, any(str)) {
			return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field %q must be one of %s, got %q", name, enumList(prop.Enum), str)}
		}
		if str, ok := v.(string); ok {
			if prop.MinLength != nil && len(str) < *prop.MinLength {
				return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field %q must not be empty", name)}
			}
			if strings.ContainsRune(str, 0) {
				return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field %q contains a NUL byte", name)}
			}
		}
		if arr, ok := v.([]any); ok && prop.Items != nil && prop.Items.Type == "string" {
			for i, item := range arr {
				if _, ok := item.(string); !ok {
					return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field \"%s[%d]\" must be a string, got %s", name, i, describe(item))}
				}
			}
		}
		if arr, ok := v.([]any); ok && prop.MinItems != nil && len(arr) < *prop.MinItems {
			return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field %q must not be empty", name)}
		}
		if n, ok := v.(float64); ok {
			if prop.Minimum != nil && n < *prop.Minimum {
				return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field %q must be at least %v, got %v", name, *prop.Minimum, n)}
			}
			if prop.Maximum != nil && n > *prop.Maximum {
				return &Error{Code: CodeInvalidArgument, Field: name, Message: fmt.Sprintf("field %q must be at most %v, got %v", name, *prop.Maximum, n)}
			}
		}
		switch x := v.(type) {
		case map[string]any:
			if prop.Properties != nil {
				if e := checkObject(prop, x, name+"."); e != nil {
					return e
				}
			}
		case []any:
			if prop.Items == nil || prop.Items.Properties == nil {
				continue
			}
			for i, item := range x {
				m, ok := item.(map[string]any)
				if !ok {
					return &Error{Code: CodeInvalidArgument, Field: fmt.Sprintf("%s[%d]", name, i), Message: fmt.Sprintf("field \"%s[%d]\" must be an object, got %s", name, i, describe(item))}
				}
				if e := checkObject(prop.Items, m, fmt.Sprintf("%s[%d].", name, i)); e != nil {
					return e
				}
			}
		}
	}
	return nil
}

func enumList(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(parts, ", ")
}

func propertyNames(s *jsonschema.Schema) []string {
	if len(s.PropertyOrder) > 0 {
		return s.PropertyOrder
	}
	return sortedKeys(s.Properties)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func schemaTypes(s *jsonschema.Schema) []string {
	if s == nil {
		return nil
	}
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func typeMatches(s *jsonschema.Schema, v any) bool {
	types := schemaTypes(s)
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		switch x := v.(type) {
		case nil:
			if t == "null" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case float64:
			if t == "number" || (t == "integer" && x == float64(int64(x))) {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		}
	}
	return false
}

func typeName(s *jsonschema.Schema) string {
	var names []string
	for _, t := range schemaTypes(s) {
		switch t {
		case "null":
			continue
		case "integer":
			names = append(names, "an integer")
		case "array":
			names = append(names, "an array")
		case "object":
			names = append(names, "an object")
		default:
			names = append(names, "a "+t)
		}
	}
	if len(names) == 0 {
		return "a value"
	}
	return strings.Join(names, " or ")
}

// describe names a decoded JSON value's type and shows a short form of it, for "got ..." messages.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			x = x[:40] + "..."
		}
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case float64:
		return fmt.Sprintf("number %v", x)
	case []any:
		return fmt.Sprintf("array of %d", len(x))
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
