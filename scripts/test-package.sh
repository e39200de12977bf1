#!/usr/bin/env bash
# Installs the built Debian package into a fresh root and runs what it installed. The root is container-like: an
# empty folder with its own dpkg database and nothing else (no Docker engine runs on CI machines). There:
#   - dpkg -i installs the package (--force-depends, as the empty root has none of the libraries; their names are
#     resolved against Debian's archive by apt below);
#   - chroot runs /usr/bin/rooted version and rooted-mcp --help: both are static and need nothing from the system;
#   - rooted call read_file reads a PDF there, through the rooted-reader installed beside it;
#   - the menu entry is valid, the icon is there, and the desktop binary's libraries all resolve on this machine;
#   - rooted mcp, from the installed path (it becomes rooted-mcp beside it), is driven over stdio by the official
#     TypeScript MCP SDK.
set -euo pipefail
deb=$(realpath "$1")
cd "$(dirname "$0")/.."
fail() { echo "test-package: $*" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/tmp"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --log=/dev/null --force-depends -i "$deb" >/dev/null 2>&1 || fail "dpkg -i failed"
dpkg --root="$root" -s rooted | grep -q '^Status: install ok installed' || fail "dpkg did not record rooted as installed"
echo "test-package: installed $(basename "$deb") into a fresh root: $(dpkg --root="$root" -L rooted | grep -c .) paths"

for f in usr/bin/rooted usr/bin/rooted-mcp usr/bin/rooted-reader usr/bin/rooted-desktop usr/share/applications/rooted.desktop usr/share/icons/hicolor/256x256/apps/rooted.png; do
  [ -e "$root/$f" ] || fail "the package lacks /$f"
done
desktop-file-validate "$root/usr/share/applications/rooted.desktop" || fail "the menu entry is not valid"

out=$(chroot "$root" /usr/bin/rooted version)
echo "$out"
grep -q "^rooted $(sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json) (commit [0-9a-f]" <<<"$out" || fail "rooted version printed: $out"
out=$(chroot "$root" /usr/bin/rooted-mcp --help 2>&1) || fail "rooted-mcp --help failed in the fresh root: $out"
grep -q "^Usage: rooted mcp" <<<"$out" || fail "rooted-mcp --help printed: $out"
mkdir "$root/project"
cp scripts/testdata/two-pages.pdf "$root/project/doc.pdf"
out=$(chroot "$root" /usr/bin/rooted call read_file --root /project '{"path":"doc.pdf"}' 2>&1) || fail "rooted call read_file of a PDF failed in the fresh root: $out"
grep -qF 'Installed and reading.\n--- page 2 ---\nSecond page.' <<<"$out" || fail "rooted call read_file of a PDF printed: $out"

# Every Depends names a package Debian has (apt resolves the .deb as if installing it, changing nothing).
apt-get install --simulate -qq "$deb" >/dev/null || fail "apt cannot resolve the package's Depends: $(dpkg-deb -f "$deb" Depends)"
libs=$(ldd "$root/usr/bin/rooted-desktop")  # captured first: grep -q closing a pipe early would fail it
if grep -q 'not found' <<<"$libs"; then fail "the desktop binary's libraries are missing: $(grep 'not found' <<<"$libs")"; fi
# The libraries the Depends name are the ones the desktop binary links.
for lib in libwebkit2gtk-4.1.so libgtk-3.so libjavascriptcoregtk-4.1.so; do
  grep -q "$lib" <<<"$libs" || fail "expected the desktop binary to link $lib"
done
# rooted with no command starts rooted-desktop beside it, which without a display says so and exits 1.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$root/usr/bin/rooted" 2>&1 || true)
grep -q "no display" <<<"$out" || fail "rooted without a display should say so through rooted-desktop, said: $out"

(cd frontend && ROOTED_BINARY="$root/usr/bin/rooted" node --test e2e/mcp.test.mjs)
echo "test-package: ok"
