#!/usr/bin/env bash
# Installs what building (deps.sh build), packaging (deps.sh package) or testing (deps.sh test: all of it) Rooted
# needs on Debian 12, and only what is missing, so it is safe and quick to run again. Go and Node.js come with the machine; everything else is here.
set -euo pipefail

what=${1:-build}
WAILS_VERSION=v2.16.0
GOFUMPT_VERSION=v0.9.2
STATICCHECK_VERSION=v0.8.2
NFPM_VERSION=v2.44.0

build_pkgs=(gcc pkg-config git libgtk-3-dev libwebkit2gtk-4.1-dev)
test_pkgs=(xvfb xauth x11-utils imagemagick chromium git ripgrep desktop-file-utils)

die() { echo "deps: $*" >&2; exit 1; }

case "$what" in
  build) pkgs=("${build_pkgs[@]}") ;;
  package) pkgs=() ;;
  test) pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) die "usage: $0 build|package|test" ;;
esac

command -v go >/dev/null || die "Go is not on PATH: install Go 1.26 or newer (https://go.dev/dl) and run make again"
command -v node >/dev/null && command -v npm >/dev/null || die "Node.js 20 and npm are not on PATH: install them and run make again"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node.js $(node --version) is too old: the frontend needs Node.js 20 or newer"

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || die "missing packages ${missing[*]}, and this is not a Debian system: install their equivalents"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "missing packages ${missing[*]}: run as root or install sudo"
    sudo=(sudo)
  fi
  echo "deps: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

gobin=$(go env GOPATH)/bin
if [ "$what" = package ] || [ "$what" = test ]; then
  if ! go version -m "$gobin/nfpm" 2>/dev/null | grep -qP "^\tmod\tgithub.com/goreleaser/nfpm/v2\t\Q$NFPM_VERSION\E\t"; then
    echo "deps: installing nfpm $NFPM_VERSION"
    (cd / && GOFLAGS=-mod=mod go install "github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION")
  fi
  [ "$what" = package ] && exit 0
fi
if ! "$gobin/wails" version 2>/dev/null | head -n 1 | grep -qx "$WAILS_VERSION"; then
  echo "deps: installing the wails CLI $WAILS_VERSION"
  (cd / && GOFLAGS=-mod=mod go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION")
fi
if [ "$what" = test ] && ! "$gobin/gofumpt" --version 2>/dev/null | grep -q "^$GOFUMPT_VERSION"; then
  echo "deps: installing gofumpt $GOFUMPT_VERSION"
  (cd / && GOFLAGS=-mod=mod go install "mvdan.cc/gofumpt@$GOFUMPT_VERSION")
fi
if [ "$what" = test ] && ! go version -m "$gobin/staticcheck" 2>/dev/null | grep -qP "^\tmod\thonnef.co/go/tools\t\Q$STATICCHECK_VERSION\E\t"; then
  echo "deps: installing staticcheck $STATICCHECK_VERSION"
  (cd / && GOFLAGS=-mod=mod go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION")
fi
exit 0
