# Rooted: `make run` builds and opens the app, `make test` runs every test. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
export PATH := $(PATH):/usr/local/go/bin

TAGS    := webkit2_41
GOBIN   := $(shell go env GOPATH 2>/dev/null)/bin
WAILS   := $(GOBIN)/wails
GOFUMPT := $(GOBIN)/gofumpt
BIN     := build/bin/rooted
ARGS    ?=

NPM_STAMP    := frontend/node_modules/.package-lock.json
DIST         := frontend/dist/index.html
FRONTEND_SRC := $(shell find frontend/src frontend/wailsjs -type f 2>/dev/null) frontend/index.html frontend/vite.config.ts frontend/tsconfig.json
GO_SRC       := $(shell find app backend -type f \( -name '*.go' -o -name '*.md' \) 2>/dev/null) main.go go.mod go.sum

.PHONY: help deps deps-test run dev build bindings test lint test-go test-frontend test-e2e bench clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

deps: ## install what building needs (apt packages, the wails CLI)
	@scripts/deps.sh build

deps-test: ## install what testing needs as well (Xvfb, Chromium, ImageMagick, gofumpt)
	@scripts/deps.sh test

# npm install (which follows the lockfile) rather than npm ci: ci insists the lockfile list every platform's
# optional packages (rollup's, esbuild's), which a registry mirror serving only this platform's cannot provide.
$(NPM_STAMP): frontend/package.json frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund --prefer-offline
	@touch $@

$(DIST): $(NPM_STAMP) $(FRONTEND_SRC)
	cd frontend && npm run build

$(BIN): $(DIST) $(GO_SRC)
	$(WAILS) build -tags $(TAGS) -s -m -skipbindings -nocolour

build: deps $(BIN) ## build the desktop binary into build/bin/rooted

run: deps $(BIN) ## build and open the app; ARGS=--root DIR opens a folder directly
	$(BIN) $(ARGS)

dev: deps $(NPM_STAMP) ## run the app with live reload (wails dev)
	$(WAILS) dev -tags $(TAGS)

bindings: deps $(DIST) ## regenerate frontend/wailsjs from the bound Go methods
	$(WAILS) generate module -tags $(TAGS)

test: deps-test lint test-go test-frontend test-e2e ## run every test: Go, frontend, browser end-to-end, native window

lint: $(DIST) ## go vet (Linux, Windows, macOS), gofumpt, tsc --noEmit, and generated bindings up to date
	go vet -tags $(TAGS) ./...
	GOOS=windows go vet ./backend/... && GOOS=darwin go vet ./backend/...
	GOOS=windows CGO_ENABLED=0 go build -o /dev/null .
	@out=$$($(GOFUMPT) -l app backend main.go); if [ -n "$$out" ]; then echo "gofumpt would reformat:"; echo "$$out"; exit 1; fi
	cd frontend && npm run typecheck
	scripts/check-bindings.sh $(WAILS) $(TAGS)

test-go: $(DIST) ## Go unit tests with the race detector
	go test -race -tags $(TAGS) ./...

test-frontend: $(NPM_STAMP) ## vitest unit tests
	cd frontend && npm test

test-e2e: $(BIN) ## Chromium against wails dev, and the native window under Xvfb
	cd frontend && npm run e2e

bench: $(DIST) ## Go benchmarks
	go test -run '^$$' -bench . -benchmem ./backend/...

clean: ## remove build output
	rm -rf build/bin frontend/dist test-output
