# tableref: two commands do all set-up on a fresh Debian 12 machine.
#   make run    install what is missing, build, start tableref on the demo table
#   make test   install what is missing, build, run every test
SHELL := /bin/bash
.DEFAULT_GOAL := run

GO_WANT  := $(shell sed -n 's/^go \([0-9.]*\).*/\1/p' go.mod)
TOOLCHAIN_VERSION ?= 1.26.8
export TOOLCHAIN_VERSION
APT_PKGS := golang-go libopencv-dev pkg-config libgl1-mesa-dev xorg-dev gcc g++ git ca-certificates
# Go found by scripts/go.sh: the newest of go on PATH, /usr/local/go, or a
# toolchain fetched from the Go module proxy.
GO       := $(CURDIR)/scripts/go.sh
BIN      := bin/tableref

.PHONY: run test deps build vet bench fuzz clean

deps:
	@scripts/deps.sh $(APT_PKGS)

build: deps
	@$(GO) build -o $(BIN) ./cmd/tableref

run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] || [ -n "$(ARGS)" ]; then \
		./$(BIN) $(ARGS); \
	else \
		echo "make run: no display found; showing the demo table as text (tableref demo)"; \
		./$(BIN) demo; \
	fi

test: deps
	@$(GO) vet ./...
	@$(GO) test -count=1 ./...
	@echo "== gocv Mat leak checks (-tags matprofile)"
	@$(GO) test -count=1 -tags matprofile ./calibration ./vision ./vision/board9

bench: deps
	@$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz: deps
	@$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./models

clean:
	rm -rf bin
