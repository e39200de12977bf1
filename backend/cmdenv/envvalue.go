package cmdenv

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// A value carries a credential not only in a shape of its own (secretValue) but as what it assigns: a URL's query
// or fragment parameter (https://registry.example/?token=..., ?private_token=, &access_token=, #access_token=,
// ?apikey=, ?auth=, ?key=, a presigned URL's X-Amz-Signature=), a Java system property (-Dgpr.key=...), a Go
// linker assignment (-ldflags=-X=main.apiKey=...), a long option (--registry-auth=...), a C macro
// (-DAPI_KEY=...). Every such assignment in a value is read the same way, whatever the variable (a proxy, a
// registry, an index URL, JAVA_TOOL_OPTIONS, GOFLAGS, CGO_CFLAGS, MAVEN_OPTS, ...): the name before each "=" is split
// into its words (at punctuation and at camelCase humps), and the value is a credential when the name's last word
// is a credential word (assignKeyWords: gpr.key, apiKey, private_token, X-Amz-Signature) or any of its words is one
// no ordinary setting uses (assignAnyWords: tokenValue, password.hash). keyStore=, keyname=, file.encoding=,
// target-cpu= pass.

// assignKeyWords end the name of an assignment that sets a credential.
var assignKeyWords = []string{
	"TOKEN", "AUTHTOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "PWD", "CREDENTIAL",
	"CREDENTIALS", "AUTH", "KEY", "APIKEY", "SESSION", "SESSIONID", "COOKIE", "PRIVATE", "DSN", "PAT", "OTP", "TOTP",
	"SIG", "SIGNATURE", "JWT", "BEARER", "LOGIN", "PW", "PASSCODE", "ENTITLEMENT",
}

// assignAnyWords mark an assignment as a credential wherever they stand in its name.
var assignAnyWords = []string{
	"TOKEN", "AUTHTOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASSPHRASE", "APIKEY", "CREDENTIAL",
	"CREDENTIALS", "SIGNATURE",
}

// A token also stands in a URL's path, with no name to give it away: Cloudsmith's entitlement URLs
// (https://dl.cloudsmith.io/TOKEN/org/repo/...), Gemfury's (https://npm.fury.io/TOKEN/user/), private
// registries' (https://h/api/TOKEN/index/). A path segment is taken for one by its shape (tokenLike): a run of 16
// or more letters and digits, both present, switching between lower case, upper case and digits at least three
// times. Words joined by "-", "_" or "." (python3-packages-2024, x86_64-unknown-linux-gnu, a UUID), version
// stamps and numeric project ids (/api/v4/projects/12345678/) pass; a hexadecimal hash in a path is taken for a
// token too, which only drops a variable (reported) rather than leaking one.

// urlPath is a URL's path in a value: everything after the host up to a query, fragment, blank or list separator.
var urlPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#,;|]+(/[^\s?#,;|]*)`)
})

// secretPath reports whether a URL in value has a path segment shaped like a token.
func secretPath(value string) bool {
	if !strings.Contains(value, "://") {
		return false
	}
	for _, m := range urlPath().FindAllStringSubmatch(value, -1) {
		for _, seg := range strings.Split(m[1], "/") {
			if dec, err := url.PathUnescape(seg); err == nil {
				seg = dec
			}
			for _, piece := range strings.FieldsFunc(seg, func(r rune) bool {
				return r == '-' || r == '_' || r == '.' || r == '+' || r == '~' || r == ':' || r == '@'
			}) {
				if tokenLike(piece) {
					return true
				}
			}
		}
	}
	return false
}

// tokenLike says a word looks generated rather than written: 16 or more ASCII letters and digits, both present,
// changing between lower case, upper case and digit at least three times.
func tokenLike(w string) bool {
	if len(w) < 16 {
		return false
	}
	class := func(c byte) int {
		switch {
		case c >= 'a' && c <= 'z':
			return 1
		case c >= 'A' && c <= 'Z':
			return 2
		case c >= '0' && c <= '9':
			return 3
		}
		return 0
	}
	changes, letters, digits := 0, false, false
	for i := 0; i < len(w); i++ {
		c := class(w[i])
		switch c {
		case 0:
			return false
		case 3:
			digits = true
		default:
			letters = true
		}
		if i > 0 && c != class(w[i-1]) {
			changes++
		}
	}
	return letters && digits && changes >= 3
}

// assignment is the name an "=" assigns to: the run of name characters just before it (after "?", "&", ";", "#",
// "/", a space, a quote or a comma, which end a URL's or a list's previous part).
var assignment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_.:-]+=`) })

// SecretIn reports whether a variable's value carries a credential: by its shape (secretValue), by an assignment
// in it whose name reads as one (secretAssignment), or by an option that takes a credential as its next word
// (--api-token S). A percent-encoded value (?access%5Ftoken=) is read decoded too.
func SecretIn(value string) bool {
	if secretValue().MatchString(value) || secretAssignment(value) || secretOption(value) || secretPath(value) {
		return true
	}
	if dec, err := url.PathUnescape(value); err == nil && dec != value {
		return SecretIn(dec)
	}
	return false
}

// secretOption reports whether value holds an option, followed by another word, whose name holds a word no
// ordinary setting uses (assignAnyWords): --api-token S, -password S. An option whose name only ends in such a word
// (--no-auth, -Dx.key) is not taken to take the next word.
func secretOption(value string) bool {
	fields := strings.Fields(value)
	for _, f := range fields[:max(len(fields)-1, 0)] {
		if !strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue
		}
		if slices.ContainsFunc(nameWords(f), func(w string) bool { return slices.Contains(assignAnyWords, w) }) {
			return true
		}
	}
	return false
}

// secretAssignment reports whether a name assigned to with "=" anywhere in value reads as a credential.
func secretAssignment(value string) bool {
	if !strings.Contains(value, "=") {
		return false
	}
	for _, m := range assignment().FindAllString(value, -1) {
		words := nameWords(strings.TrimSuffix(m, "="))
		if len(words) == 0 {
			continue
		}
		if slices.Contains(assignKeyWords, words[len(words)-1]) {
			return true
		}
		for _, w := range words {
			if slices.Contains(assignAnyWords, w) {
				return true
			}
		}
	}
	return false
}

// nameWords splits a name into its words in upper case: at every character that is not a letter or digit, and
// where camelCase starts a word (apiKey, proxyPassword, APIKey, _authToken). A Java property's -D and a Go
// linker's -X stay with the first word (-Dgpr.key is DGPR, KEY), which is never a credential word's end.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	runes := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToUpper(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prev := runes[i-1]
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
