package tool

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateCodes = flag.Bool("update-codes", false, "rewrite frontend/src/bridge/error-codes.ts from Codes")

// The frontend's list of the backend's error codes is generated from Codes (-update-codes rewrites it): a code
// added here and not there, or kept there after it went, fails this test, which make lint runs.
func TestFrontendErrorCodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("// The backend's stable error codes, generated from backend/tool/codes.go by\n")
	b.WriteString("// `go test ./backend/tool -run TestFrontendErrorCodes -update-codes`: do not edit by hand.\n")
	b.WriteString("export const BACKEND_ERROR_CODES = {\n")
	seen := map[string]bool{}
	for _, c := range Codes {
		if seen[c.Code] || c.Code == "" || c.Meaning == "" {
			t.Errorf("code %q: listed twice or without its meaning", c.Code)
		}
		seen[c.Code] = true
		b.WriteString("  " + c.Code + ": '" + strings.ReplaceAll(c.Meaning, "'", "\\'") + "',\n")
	}
	b.WriteString("} as const\n\nexport type BackendErrorCode = keyof typeof BACKEND_ERROR_CODES\n")
	path := filepath.Join("..", "..", "frontend", "src", "bridge", "error-codes.ts")
	if *updateCodes {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != b.String() {
		t.Errorf("%s is not what Codes generates (run go test ./backend/tool -run TestFrontendErrorCodes -update-codes): %v", path, err)
	}
}

// Every Code constant of the package is in Codes.
func TestCodesListsEveryCode(t *testing.T) {
	fset := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	listed := map[string]bool{}
	for _, c := range Codes {
		listed[c.Code] = true
	}
	{
		for _, f := range files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, s := range g.Specs {
					v := s.(*ast.ValueSpec)
					for i, n := range v.Names {
						if lit, ok := v.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(n.Name, "Code") && lit.Kind == token.STRING {
							if code, _ := strconv.Unquote(lit.Value); !listed[code] {
								t.Errorf("%s (%s) is not in Codes", n.Name, code)
							}
						}
					}
				}
			}
		}
	}
}
