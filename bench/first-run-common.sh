# Sourced by the first-run benchmarks (bench/first-go-test.sh, bench/first-npm-install.sh) with their arguments:
# sets rooted (the binary given, else build/bin/rooted, else one built into the work folder) and work (a folder
# removed on exit), and defines seconds, which times a command and prints its wall-clock seconds.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rooted=${1:-build/bin/rooted}
if [ ! -x "$rooted" ]; then
	rooted=$work/bin/rooted
	go build -o "$rooted" ./cmd/rooted
fi
seconds() {
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}
