#!/usr/bin/env bash
# Installs what building (deps.sh build), packaging (deps.sh package) or testing (deps.sh test: all of it) Rooted
# needs on Debian 12, and only what is missing, so it is safe and quick to run again. Go and npm come with the
# machine; Node.js 22 (the frontend's and the agent CLIs' runtime; Debian's and many machines' Node is older) and
# everything else is here.
set -euo pipefail

what=${1:-build}
WAILS_VERSION=v2.16.0
GOFUMPT_VERSION=v0.9.2
STATICCHECK_VERSION=v0.8.2
NFPM_VERSION=v2.44.0
# Node.js comes from npm's per-platform package of the official build (what the `node` package installs), into a
# folder of its own that the Makefile puts first on PATH; the machine's own node is left alone.
NODE_VERSION=22.23.3
NODE_HOME=/usr/local/lib/rooted-node22

build_pkgs=(gcc pkg-config git libgtk-3-dev libwebkit2gtk-4.1-dev)
# dbus-daemon and gnome-keyring: the key store's tests run a real Secret Service on a private session bus.
test_pkgs=(xvfb xauth x11-utils imagemagick chromium git ripgrep desktop-file-utils dbus-daemon gnome-keyring openssl)

die() { echo "deps: $*" >&2; exit 1; }

case "$what" in
  build) pkgs=("${build_pkgs[@]}") ;;
  package) pkgs=() ;;
  test) pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) die "usage: $0 build|package|test" ;;
esac

command -v go >/dev/null || die "Go is not on PATH: install Go 1.26 or newer (https://go.dev/dl) and run make again"
command -v npm >/dev/null || die "npm is not on PATH: install Node.js and npm (any version: Node.js $NODE_VERSION comes from npm) and run make again"

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "installing needs root: run as root or install sudo"
  sudo=(sudo)
fi

case "$(uname -m)" in
  x86_64) node_arch=x64 ;;
  aarch64) node_arch=arm64 ;;
  *) die "no Node.js package for $(uname -m)" ;;
esac
node_bin=$NODE_HOME/node_modules/node-linux-$node_arch/bin
if [ "$("$node_bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
  echo "deps: installing Node.js $NODE_VERSION into $NODE_HOME"
  "${sudo[@]}" npm install --prefix "$NODE_HOME" --no-save --no-audit --no-fund --loglevel=error "node-linux-$node_arch@$NODE_VERSION" >/dev/null
  [ "$("$node_bin/node" --version)" = "v$NODE_VERSION" ] || die "Node.js $NODE_VERSION did not install into $NODE_HOME"
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || die "missing packages ${missing[*]}, and this is not a Debian system: install their equivalents"
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
