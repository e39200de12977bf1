package search

import (
	"regexp/syntax"
)

// requiredLiteral returns a case-sensitive literal that every match of the regexp contains (the best of the
// literals of a top-level concatenation), and whether a match can span a newline. A search scans for the
// literal with the fast finder and runs the regexp only around it.
func requiredLiteral(expr string) (lit []byte, multiline bool, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, true, false
	}
	re = re.Simplify()
	multiline = canMatchNewline(re)
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	var cands [][]rune
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			cands = append(cands, re.Rune)
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			for s.Op == syntax.OpCapture {
				s = s.Sub[0]
			}
			if s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0 {
				cands = append(cands, s.Rune)
			}
		}
	}
	best, score := []byte(nil), 0
	for _, c := range cands {
		b := []byte(string(c))
		// Longer literals and rarer bytes make fewer false candidates.
		s := len(b) * 4
		for _, x := range b {
			s += 256 - byteRank[x]
		}
		if s > score {
			best, score = b, s
		}
	}
	if len(best) < 2 {
		return nil, multiline, false
	}
	return best, multiline, true
}

// canMatchNewline reports whether any match of re could include '\n' (when not, each line can be tried alone).
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpAnyCharNotNL, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch, syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
		return false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	}
	for _, s := range re.Sub {
		if canMatchNewline(s) {
			return true
		}
	}
	return false
}
