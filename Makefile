# Rooted: `make run` builds and opens the app, `make test` runs every test. Both install what is missing first.
# Four binaries: build/bin/rooted, the CLI (pure Go, `make cli` needs only Go), which `rooted mcp` turns into
# build/bin/rooted-mcp, the MCP server (pure Go, apart so the MCP SDK does not slow every CLI start),
# build/bin/rooted-reader, which both start to read a PDF or a web page (its parsers would slow every start), and
# build/bin/rooted-desktop, the window (Wails, GTK, WebKit), which `rooted` with no command starts.
SHELL := /bin/bash
.DEFAULT_GOAL := help
# Node.js 22, which scripts/deps.sh installs into a folder of its own, runs every npm step, the frontend's tests and
# the agent CLIs of the end-to-end test. Its real folder is on PATH, not a link to it, so that the sandbox, which
# lets commands read the folders on PATH, lets a sandboxed node run too.
# It is on PATH before deps has installed it, so that a first `make run` builds with it.
NODE_BIN := /usr/local/lib/rooted-node22/node_modules/node-linux-$(shell uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')/bin
export PATH := $(NODE_BIN):$(PATH):/usr/local/go/bin

TAGS    := webkit2_41
GOBIN   := $(shell go env GOPATH 2>/dev/null)/bin
WAILS   := $(GOBIN)/wails
GOFUMPT := $(GOBIN)/gofumpt
STATICCHECK := $(GOBIN)/staticcheck
NFPM    := $(GOBIN)/nfpm
CLI     := build/bin/rooted
MCP     := build/bin/rooted-mcp
READER  := build/bin/rooted-reader
DESKTOP := build/bin/rooted-desktop
ARGS    ?=

VERSION := $(shell sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json)
COMMIT  := $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo +dirty)
LDFLAGS := -X github.com/rooted-dev/rooted/backend/version.Version=$(VERSION) -X github.com/rooted-dev/rooted/backend/version.Commit=$(COMMIT)
ARCH    := $(shell go env GOARCH 2>/dev/null)
DEB     := build/pkg/rooted_$(VERSION)_$(ARCH).deb

NPM_STAMP    := frontend/node_modules/.package-lock.json
AGENTS_STAMP := frontend/e2e/agents/node_modules/.package-lock.json
DIST         := frontend/dist/index.html
FRONTEND_SRC := $(shell find frontend/src frontend/wailsjs -type f 2>/dev/null) frontend/index.html frontend/vite.config.ts frontend/tsconfig.json
GO_SRC       := $(shell find app backend cmd -type f \( -name '*.go' -o -name '*.md' \) 2>/dev/null) main.go go.mod go.sum

.PHONY: help deps deps-test deps-package run dev build cli package bindings test lint test-go test-frontend test-e2e test-package bench clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

deps: ## install what building needs (apt packages, the wails CLI)
	@scripts/deps.sh build

deps-test: ## install what testing needs as well (Xvfb, Chromium, ImageMagick, GNOME Keyring, gofumpt, nfpm)
	@scripts/deps.sh test

deps-package: ## install what packaging needs (nfpm)
	@scripts/deps.sh package

# npm install (which follows the lockfile) rather than npm ci: ci insists the lockfile list every platform's
# optional packages (rollup's, esbuild's), which a registry mirror serving only this platform's cannot provide.
$(NPM_STAMP): frontend/package.json frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund --prefer-offline
	@touch $@

# The coding-agent CLIs the end-to-end test drives, pinned by their own lockfile (not the frontend's dependencies).
# npm holds back install scripts until the package.json's allowScripts approves them: those approved copy each
# CLI's native binary out of its platform package; the rest (Gemini CLI's optional node-pty and keytar) need not run.
$(AGENTS_STAMP): frontend/e2e/agents/package.json frontend/e2e/agents/package-lock.json
	cd frontend/e2e/agents && npm install --no-audit --no-fund --prefer-offline
	@touch $@

$(DIST): $(NPM_STAMP) $(FRONTEND_SRC)
	cd frontend && npm run build

# The desktop binary. Its version stamp is the same as the CLI's; the commit is stamped too since a GOFLAGS of
# -buildvcs=false (or a tree without .git) leaves Go's own record empty.
$(DESKTOP): $(DIST) $(GO_SRC)
	$(WAILS) build -tags $(TAGS) -s -m -skipbindings -nocolour -ldflags "-s -w $(LDFLAGS)"

$(CLI): $(GO_SRC)
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w $(LDFLAGS)" -o $@ ./cmd/rooted

$(MCP): $(GO_SRC)
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w $(LDFLAGS)" -o $@ ./cmd/rooted-mcp

$(READER): $(GO_SRC)
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w $(LDFLAGS)" -o $@ ./cmd/rooted-reader

cli: $(CLI) $(MCP) $(READER) ## build just the CLI, MCP server and reader (build/bin/rooted, rooted-mcp, rooted-reader): needs only Go

build: deps $(DESKTOP) $(CLI) $(MCP) $(READER) ## build every binary into build/bin

run: build ## build and open the app; ARGS=DIR (or --root DIR) opens a folder directly
	$(CLI) $(ARGS)

$(DEB): $(DESKTOP) $(CLI) $(MCP) $(READER) build/linux/nfpm.yaml build/linux/rooted.desktop build/linux/rooted.png
	@mkdir -p $(@D)
	VERSION=$(VERSION) ARCH=$(ARCH) $(NFPM) package --config build/linux/nfpm.yaml --packager deb --target $@

package: deps deps-package $(DEB) ## build the Debian package into build/pkg

dev: deps $(NPM_STAMP) $(READER) ## run the app with live reload (wails dev; it reads PDFs and pages in build/bin/rooted-reader)
	$(WAILS) dev -tags $(TAGS)

bindings: deps $(DIST) ## regenerate frontend/wailsjs from the bound Go methods
	$(WAILS) generate module -tags $(TAGS)

test: deps-test ## run every test: Go, frontend, browser end-to-end, native window, package (with each step's time)
	@scripts/timed-steps.sh $(MAKE) lint test-go test-frontend test-e2e test-package

lint: $(DIST) ## go vet (Linux, Windows, macOS), go mod tidy, staticcheck, gofumpt, tsc --noEmit, eslint, generated bindings up to date
	go mod tidy -diff
	go vet -tags $(TAGS) ./...
	$(STATICCHECK) -tags $(TAGS) ./...
	go test -count=1 -run '^TestFrontendResultTypes$$' ./backend/tools/ # the frontend's result types against the Go structs
	go test -count=1 -run '^TestFrontendErrorCodes$$' ./backend/tool/ # the frontend's list of error codes, generated from Go's
	GOOS=windows go vet ./backend/... && GOOS=darwin go vet ./backend/...
	GOOS=windows CGO_ENABLED=0 go build -o /dev/null .
	GOOS=windows CGO_ENABLED=0 go build -o /dev/null ./cmd/rooted
	GOOS=windows CGO_ENABLED=0 go build -o /dev/null ./cmd/rooted-mcp
	GOOS=windows CGO_ENABLED=0 go build -o /dev/null ./cmd/rooted-reader
	@if go list -deps ./cmd/rooted ./cmd/rooted-mcp | grep -q 'wailsapp\|webkit'; then echo "cmd/rooted and cmd/rooted-mcp must not link Wails, GTK or WebKit"; exit 1; fi
	@if go list -tags $(TAGS) -deps . ./cmd/rooted ./cmd/rooted-mcp | grep -q 'tetratelabs/wazero\|go-readability\|golang.org/x/net/html$$'; then echo "the desktop app, cmd/rooted and cmd/rooted-mcp must not link PDFium's runtime, readability or the HTML parser: rooted-reader parses, confined, and they would cost every start"; exit 1; fi
	@if go list -deps ./cmd/rooted | grep -qx 'net/http\|github.com/modelcontextprotocol/go-sdk/mcp\|github.com/godbus/dbus/v5'; then echo "cmd/rooted must not link net/http, the MCP SDK or D-Bus (they cost every command's start-up)"; exit 1; fi
	@out=$$($(GOFUMPT) -l app backend cmd main.go); if [ -n "$$out" ]; then echo "gofumpt would reformat:"; echo "$$out"; exit 1; fi
	cd frontend && npm run typecheck && npm run lint
	scripts/check-bindings.sh $(WAILS) $(TAGS)

test-go: $(DIST) ## Go unit tests with the race detector; as root, the sandbox's tests again as nobody
	go test -race -timeout 30m -tags $(TAGS) ./...
	scripts/test-unprivileged.sh $(TAGS)

test-frontend: $(NPM_STAMP) ## vitest unit tests
	cd frontend && npm test

test-e2e: $(DESKTOP) $(CLI) $(MCP) $(READER) $(AGENTS_STAMP) ## Chromium against wails dev, the native window under Xvfb, rooted mcp over stdio, five agent CLIs
	cd frontend && npm run e2e

test-package: $(DEB) ## install the package into a fresh root; run rooted version and rooted mcp from it
	scripts/test-package.sh $(DEB)

bench: $(DIST) ## Go benchmarks
	go test -run '^$$' -bench . -benchmem ./backend/...

clean: ## remove build output
	rm -rf build/bin build/pkg frontend/dist test-output
