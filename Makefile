# convspec — the two commands of the README are `make conform` and `make test`; `make check`
# is the inner loop (CONTRIBUTING.md).

GO ?= go
BIN := bin/conform

.PHONY: all conform check test test-full test-loaded test-stall nversion lint bench bench-peers fuzz build mutants golden golden-characters golden-tokens token-vectors clean

# The Go processes of the test targets (compiler, linker, vet, test binaries and the conform they
# start) collect garbage at GOGC=400 unless GOGC is set: they are short-lived and allocate far
# more than they keep. In a warm checkout make test's CPU went down 5-8 % (on a clean clone, whose
# npm installs it does not reach, within noise), for a few hundred MB more at peak (D-99).
# The benchmarks, the fuzz targets and make conform keep Go's and conform's own defaults.
TEST_GOGC := $(or $(GOGC),400)
lint test check check-units check-consistency test-full test-loaded test-stall nversion mutants: export GOGC := $(TEST_GOGC)

all: lint test

build:
	$(GO) build -o $(BIN) ./cmd/conform

## conform: run the whole suite against the built-in reference
conform: build
	./$(BIN)

## test: lint, then every Go test (scenarios and properties in-process and over the wire, mutants, CLI);
## -timeout 30m is a hang bound: go test's default of 10 min per package fails a loaded runner (D-44);
## -vet=off because lint has just run go vet on the same files with every analyzer, a superset of
## the few go test runs again per package (a fifth of a cold build's CPU, D-95)
test: lint
	$(GO) test -count=1 -vet=off -timeout 30m ./...

## check: the inner loop, a small part of make test (CONTRIBUTING.md): lint; with -short, the
## tests of every package but the slow ones (and compat, which runs real npm libraries); the whole suite in process at 10 checks a
## property; and the consistency tests of the slow packages, which name the file a change
## forgot (a clause without a case, the kills table, the catalogues, the README's numbers,
## spec/traceability.md). Go's test cache reruns only the packages a change reaches. The two
## go test runs go side by side (-j2), each one's output printed whole when it ends (-O), so that
## the second's few packages do not wait on the first's last one.
CHECK_SLOW_PKGS := ./internal/runner ./internal/mutants ./internal/properties ./cmd/conform ./adapters
CHECK_SLOW_RUN := ^(TestReferenceInProcess|TestEveryClauseIsChecked|TestCatalogue|TestSuiteKillsEveryMutant|TestTraceOfTheRepository|TestREADMENumbers|TestKitsMatchTheSchema)$$
check: lint
	@$(MAKE) --no-print-directory -j2 -O check-units check-consistency

# check's two halves, run by check after lint (alone they lint nothing). -O needs GNU make 4 or
# later (macOS ships 3.81: `brew install make`, then gmake check).
.PHONY: check-units check-consistency
check-units:
	$(GO) test -short -vet=off $$($(GO) list ./... | grep -v -e /examples$$ -e /adapters$$ -e /compat$$ $(patsubst ./%,-e /%$$,$(CHECK_SLOW_PKGS)))

check-consistency:
	$(GO) test -short -vet=off -run '$(CHECK_SLOW_RUN)' $(CHECK_SLOW_PKGS)

## test-full: what make test runs at reduced strength, at full strength (D-87, D-91): the
## whole-suite runs of the examples and of the kits' adapters with 100 checks a property (make
## test: 20), the trimmer properties alone against each faulty trimmer at seeds 1, 2 and 3 (make
## test: 1), the reference over the wire with 100 checks (make test: 20; in process 100), and
## the core-only spy with 100 (make test: 10). CI runs it after make test, with make nversion,
## the independent implementation's share. Needs Node, npm and Python 3 as make test does
## (skipped without them).
test-full:
	$(GO) test -count=1 -timeout 60m -run '^(TestExamplesConform|TestKitsConform|TestToyTrimmersConform)$$' ./examples ./adapters \
		-args -conform.checks 100
	$(GO) test -count=1 -timeout 60m -run '^TestTrimmerPropertiesKillTrimmerMutants$$' ./internal/mutants \
		-args -mutants.trimmer-seeds '1 2 3'
	$(GO) test -count=1 -timeout 60m -run '^TestReferenceOverTheWire$$' ./internal/runner \
		-args -runner.wire-checks 100
	$(GO) test -count=1 -timeout 60m -run '^TestCoreOnlyIsSentNoValidationWork$$' ./internal/properties \
		-args -rapid.checks 100

## test-loaded: make test on a machine loaded with four busy processes per core, as a shared CI
## runner is (D-44); green at any load, or a verdict depends on the machine
test-loaded:
	./.ci/loaded $(MAKE) test

## test-stall: the stall check in full: the cases that play summarizer scripts at seeds 1, 2 and 3,
## run once as they are and once with the run's process group stopped 0.5 s of every 0.53 s; the
## JSON reports must be identical but for timings (D-44); and one failing property shrunk quiet and
## stalled must give the same counterexample. make test runs a narrow version of the first.
STALL_RUN ?= SUM-|PREP-|CMP-|LOOP-|prop/diff-(budget|window-summarize|loop)|prop/summarize
test-stall:
	$(GO) test -count=1 -timeout 30m -run '^TestSame(Report|Counterexample)WhenStalled$$' ./cmd/conform \
		-args -stall.run '$(STALL_RUN)' -stall.checks 100 -stall.stop 500ms -stall.shrink

## nversion: the N-version check in full (spec/golden.md, "Who is right"): the differential properties
## against the independent implementation (examples/independent) at seeds 1 to 6 with 300 checks, and
## the whole suite (100 checks a property) and replay under five declarations; make test runs seeds
## 2 and 3 with 100 checks, and the suite under two declarations with 20 (D-87).
## Needs Node and npm (skipped without them).
nversion:
	$(GO) test -count=1 -timeout 60m -run '^TestIndependentImplementation$$' ./examples \
		-args -nversion.seeds '1 2 3 4 5 6' -nversion.checks 300 -nversion.declarations -conform.checks 100

## lint: gofmt and go vet must be clean
lint:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

## bench: benchmarks (compare runs with benchstat, never with timed assertions)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-peers: count the mixed corpus with reference/tokens, npm tiktoken and gpt-tokenizer in
## one run and print millions of tokens per CPU-second and the ratios (needs Node and npm; skipped
## without them)
bench-peers:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then echo "bench-peers: skipped, node and npm are needed"; exit 0; fi; \
	set -e; mkdir -p bin; \
	(cd testdata/bench-peers && npm ci --no-audit --no-fund --silent); \
	$(GO) test -count=1 -run '^TestWriteMixedCorpus$$' ./reference/tokens/ -args -corpus.out $(CURDIR)/bin/corpus.txt >/dev/null; \
	go_mtok=$$($(GO) test -run '^$$' -bench '^BenchmarkCountMixed$$' -benchtime 3s ./reference/tokens/ | awk '/^BenchmarkCountMixed/ { for (i = 1; i < NF; i++) if ($$(i+1) == "Mtok/cpu-s") print $$i }'); \
	node testdata/bench-peers/peers.mjs bin/corpus.txt > bin/peers.tsv; \
	printf '%-24s %10s %12s %8s\n' tokenizer tokens Mtok/cpu-s ratio; \
	printf '%-24s %10s %12s %8s\n' reference/tokens "$$(cat bin/corpus.txt.tokens)" "$$go_mtok" 1.00; \
	awk -F'\t' -v go="$$go_mtok" '{ printf "%-24s %10s %12s %8.2f\n", $$1, $$2, $$3, $$3 / go }' bin/peers.tsv

## fuzz: run each fuzz target for FUZZTIME (default 30s), one after the other; their seed
## corpora already run in `make test`. The targets are found in the tests (every func Fuzz…),
## so a new one is never left out; FUZZ_TARGETS=./pkg:FuzzName … runs only those.
FUZZTIME ?= 30s
FUZZ_TARGETS ?= $(shell grep -rHoE '^func Fuzz[A-Za-z0-9_]+' --include='*_test.go' --exclude-dir=node_modules . \
	| sed -E 's|^(.*)/[^/]*_test\.go:func (Fuzz.*)$$|\1:\2|' | sort)
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -parallel 2 $$pkg; \
	done

## mutants: run the whole suite against every faulty variant, the properties under seeds 1, 2
## and 3, and print the catalogue as a report (variant, bug, killing clause, scenario and
## property, whether the differential properties kill it, under how many seeds; clauses no
## variant breaks); fails when a variant survives or a kill depends on the seed. Also
## written to bin/mutants.md. Rewrites internal/mutants/testdata/kills.json, the cases that
## kill each variant, against which `make test` runs the catalogue (commit it).
mutants:
	@mkdir -p bin
	@echo "running the whole suite against every faulty variant (a few minutes)..."
	@$(GO) test -count=1 -timeout 60m -run '^TestMutantReport$$' ./internal/mutants/ \
		-args -mutants.report -mutants.out $(CURDIR)/bin/mutants.md > bin/mutants.log 2>&1 \
		|| { cat bin/mutants.log; echo "make mutants: FAILED (a variant survived, or see above)"; exit 1; }
	@cat bin/mutants.md

## golden: regenerate the golden vectors in testdata/golden/cases from the reference (spec/golden.md)
golden:
	$(GO) run ./internal/golden/cmd/golden -o testdata/golden/cases

## golden-characters: regenerate testdata/golden/characters.json with Node (not needed by `make test`)
golden-characters:
	node testdata/golden/gen/characters.mjs

## golden-tokens: regenerate testdata/golden/tokens/cl100k_base.json with npm tiktoken (Node and npm; not needed by `make test`)
golden-tokens:
	cd testdata/golden/gen/tokens && npm ci --no-audit --no-fund && node gen.mjs

## token-vectors: regenerate internal/tokenvectors/corpus.json.gz, the exact token vectors conform embeds,
## with npm tiktoken (Node and npm; not needed by `make test` or by conform)
token-vectors:
	cd testdata/golden/gen/tokens && npm ci --no-audit --no-fund && node corpus.mjs

clean:
	rm -rf bin
