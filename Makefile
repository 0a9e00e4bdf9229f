# sleepsta — the two commands that matter: `make report` and `make test`.
SWIFT        ?= swift
CONFIG       ?= release
DATA         ?= Data
DB           ?= Data/sleepsta.sqlite
REPORTS      ?= Reports
INTERVAL     ?= 10m
# The bundled sample nights were recorded in Berlin; the 50 Hz log has epoch timestamps without a zone.
SAMPLE_TZ    ?= Europe/Berlin
# Interval lengths compared by `make report` (Reports/compare-10m-15m/, linked from Reports/index.html).
COMPARE      ?= 10m,15m
APT_PACKAGES := libsqlite3-dev libgd-dev fonts-dejavu-core pkg-config tzdata python3 zlib1g-dev libisal-dev libssl-dev
BIN          := .build/$(CONFIG)/sleepsta
TEST_SCRATCH ?= .build

.PHONY: all deps build test test-without-shared run-tests pandas-venv test-slurm slurm-deps report sample-data clean help

all: build

help:
	@echo "make report  build, ingest every recording under $(DATA), write $(DB) and $(REPORTS)/"
	@echo "make test    build and run the whole test suite"
	@echo "make test-without-shared  the suite as a plain clone runs it (../shared hidden: reference tests skip)"
	@echo "make test-slurm  a 4-shard cohort on a private Slurm (installs $(SLURM_PACKAGES) as root) equals one run"
	@echo "make deps    install missing Debian packages ($(APT_PACKAGES))"
	@echo "make build   release build of .build/$(CONFIG)/sleepsta"
	@echo "make bench   benchmark every stage and the Python peers (docs/performance.md); KEEP=1 keeps bench-work/"
	@echo "make fuzz    a million generated hostile .agd files and sleep diaries each (FUZZ_RUNS=N), 20000 text files read whole (FUZZ_READWHOLE_RUNS=N), 1000 hostile shards merged (FUZZ_MERGED_RUNS), 100 000 remembered parameter rows (FUZZ_REMEMBERED_RUNS); about 15 minutes"
	@echo "make validate-ggir  sleepsta beside GGIR night by night on the bench's 7-day wrist file and the hard cases (needs R + GGIR)"
	@echo "make clean   remove build output, the database, generated samples and reports"

# Installs what is missing with apt-get when run as root; otherwise prints the exact command.
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 2; \
	  else \
	    echo "sleepsta needs these Debian packages:$$missing"; \
	    echo "run:  sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 2; \
	  fi; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG) --product sleepsta

# The 50 Hz sample night is 45 MB, too large for git: it is generated (fixed seed) when missing.
sample-data: deps
	@test -f $(DATA)/phone-50hz-sam.csv || python3 $(DATA)/generate_samples.py --only 50hz --out $(DATA)

# The sample night is generated while the build compiles: it takes one core for a few seconds, and
# the build's last steps (the CLI's module, the link) leave one free.
report: deps
	@$(MAKE) --no-print-directory -j2 build sample-data
	mkdir -p $(REPORTS) && $(BIN) nightly --data $(DATA) --db $(DB) --reports $(REPORTS) --interval $(INTERVAL) --tz $(SAMPLE_TZ)
	$(BIN) compare --intervals $(COMPARE) --db $(DB) --reports $(REPORTS)

# Release mode: the numeric tests run 40-600x slower in debug builds.
# The tests reach what they check through `package` declarations, not @testable imports, so
# `swift test --disable-testable-imports` compiles the library modules exactly as `swift build`
# does and reuses them: after `make report`, `make test` compiles only the test targets (which
# Package.swift builds without optimisation). The run ends with the count of skipped tests and why.
test: deps
	@$(MAKE) --no-print-directory run-tests TEST_ENV=

# The suite as a user's clone runs it: no ../shared beside the repository. SLEEPSTA_EXTERNAL
# pointing nowhere hides it, so every test that needs the reference data must skip, not fail.
test-without-shared: deps
	@$(MAKE) --no-print-directory run-tests TEST_ENV="SLEEPSTA_EXTERNAL=/nonexistent/sleepsta-no-shared"

# The tests that read the exports with pandas, as researchers do, run where python3 has pandas or
# where $(PANDAS_VENV)/ holds it; CI (CI=true) or WITH_PANDAS=1 makes that venv from PyPI once.
PANDAS_VENV  ?= .venv-test
pandas-venv:
	@python3 -c "import pandas" 2>/dev/null || test -x $(PANDAS_VENV)/bin/python || { \
	  echo "creating $(PANDAS_VENV) with pandas for the export tests"; \
	  python3 -m venv $(PANDAS_VENV) && $(PANDAS_VENV)/bin/pip install -q pandas || \
	  { rm -rf $(PANDAS_VENV); echo "pandas could not be installed: the pandas checks of the exports will skip"; }; }

run-tests: $(if $(filter true,$(CI))$(WITH_PANDAS),pandas-venv)
	@mkdir -p $(TEST_SCRATCH); log=$(TEST_SCRATCH)/test.log; \
	if [ -x $(PANDAS_VENV)/bin/python ]; then export SLEEPSTA_PYTHON=$(CURDIR)/$(PANDAS_VENV)/bin/python; fi; \
	{ $(TEST_ENV) $(SWIFT) test -c $(CONFIG) --disable-testable-imports --scratch-path $(TEST_SCRATCH); echo $$? > $(TEST_SCRATCH)/test.status; } 2>&1 | tee $$log; \
	status=$$(cat $(TEST_SCRATCH)/test.status); \
	skipped=$$(grep -c ' skipped: ' $$log || true); \
	if [ "$$skipped" -gt 0 ]; then \
	  echo "$$skipped test(s) skipped:"; \
	  grep ' skipped: ' $$log | sed 's/.* skipped: "\(.*\)"$$/\1/' | sort | uniq -c | sed 's/^ */  /'; \
	  if grep -q 'shared/external not found' $$log; then \
	    echo "  (they compare with other software's output: put the reference data at ../shared/external or set SLEEPSTA_EXTERNAL; see docs/validation.md)"; \
	  fi; \
	else echo "no test skipped"; fi; \
	exit $$status

# Slurm from Debian for `make test-slurm` (docs/scale-out.md): installed when missing, as
# `make deps` does. The daemons run as ordinary processes under a temporary folder, never as services.
SLURM_PACKAGES := slurmctld slurmd slurm-client munge
slurm-deps:
	@missing=""; \
	for p in $(SLURM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq || exit 2; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || \
	      { DEBIAN_FRONTEND=noninteractive apt-get -y -qq --fix-broken install >/dev/null && \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; } || exit 2; \
	  else \
	    echo "make test-slurm needs these Debian packages:$$missing"; \
	    echo "run:  sudo apt-get update && sudo apt-get install -y --no-install-recommends$$missing"; \
	    exit 2; \
	  fi; \
	fi

# A sharded cohort on a real single-node Slurm (Tests/Slurm/test-slurm.sh): 4 array tasks, merge and
# render chained with afterok, compared with one run; one task killed and resubmitted. KEEP=1 keeps its folder.
test-slurm: deps slurm-deps
	$(SWIFT) build -c release --product sleepsta
	SLEEPSTA_BENCH=1 $(SWIFT) build -c release --product sleepsta-bench
	bash Tests/Slurm/test-slurm.sh

clean:
	rm -rf .build .build-test $(TEST_SCRATCH) $(REPORTS)/*/ $(REPORTS)/*.html $(REPORTS)/*.png $(REPORTS)/*.json
	rm -f $(DB) $(DB)-wal $(DB)-shm $(DB).lock $(DATA)/phone-50hz-sam.csv

# ---- make bench: the performance benchmark (docs/performance.md). Workloads are generated
# (fixed seeds) into $(BENCH_WORK)/ and removed afterwards unless KEEP=1; the Python peers are
# installed once into $(BENCH_VENV)/ (recipe from ../shared/TOOLCHAIN.md); the table is printed
# and written to $(REPORTS)/bench.json. Measure on a quiet machine: the table records the load.
BENCH_WORK    ?= bench-work
BENCH_VENV    ?= .venv-peers
BENCH_DAYS    ?= 7
BENCH_REPEATS ?= 3
PEER_PACKAGES := agcounts "numpy<2" "pandas<2.2" joblib lmfit plotly numba pyexcel pyexcel-ods3 pyexcel-xlsx scipy spm1d \
                 "statsmodels>=0.14" "stochastic>=0.6.0" pytz tqdm matplotlib scikit-learn imbalanced-learn
# The columnar engines sleepsta is compared with end to end (issue 18).
COLUMNAR_PEERS := polars duckdb
# The .cwa reader (Rust) sleepsta's decoder is compared with (issue 12).
CWA_PEERS := actfast==1.3.0

# Hostile input for the readers that take names and structure from the file (docs/formats.md),
# and for what is read back from a database: shards with hostile rows (each merged, and rendered
# and exported when merge takes it; 1000 take about 3 minutes) and remembered parameters.
FUZZ_RUNS ?= 1000000
# Text files read whole, up to 8 MiB each (peak memory checked against its bound, docs/formats.md).
FUZZ_READWHOLE_RUNS ?= 20000
FUZZ_MERGED_RUNS ?= 1000
FUZZ_REMEMBERED_RUNS ?= 100000
.PHONY: fuzz
fuzz: deps
	SLEEPSTA_BENCH=1 $(SWIFT) build -c release --product sleepsta-bench
	bin=$$($(SWIFT) build -c release --show-bin-path) && \
	$$bin/sleepsta-bench fuzz --target diary --runs $(FUZZ_RUNS) && \
	$$bin/sleepsta-bench fuzz --target agd --runs $(FUZZ_RUNS) && \
	$$bin/sleepsta-bench fuzz --target readwhole --runs $(FUZZ_READWHOLE_RUNS) && \
	$$bin/sleepsta-bench fuzz --target merged --runs $(FUZZ_MERGED_RUNS) && \
	$$bin/sleepsta-bench fuzz --target remembered --runs $(FUZZ_REMEMBERED_RUNS)

# sleepsta beside GGIR 3.3-6 on the bench's 7-day wrist recording (.cwa and CSV), night by night, with
# GGIR's 2013 non-wear rule and its defaults (bench/validate_ggir.py). Needs R and GGIR
# (../shared/peers/ggir/install.sh); says so and skips without them. About 15 min with GGIR.
GGIR_WORK ?= ggir-work
.PHONY: validate-ggir
validate-ggir: deps
	$(SWIFT) build -c release --product sleepsta
	SLEEPSTA_BENCH=1 $(SWIFT) build -c release --product sleepsta-bench
	@bin=$$($(SWIFT) build -c release --show-bin-path); mkdir -p $(GGIR_WORK); \
	test -f $(GGIR_WORK)/wearable-7d-100hz.cwa || $$bin/sleepsta-bench generate --work $(GGIR_WORK) --days 7 --cwa; \
	test -f $(GGIR_WORK)/hard-cases.cwa -a -f $(GGIR_WORK)/dst-autumn.cwa -a -f $(GGIR_WORK)/wrist-3day.bin -a -f $(GGIR_WORK)/wrist-3day.gt3x \
	  || $$bin/sleepsta-bench scenarios --work $(GGIR_WORK); \
	python3 bench/validate_ggir.py --sleepsta $$bin/sleepsta --work $(GGIR_WORK) \
	  $(GGIR_WORK)/wearable-7d-100hz.cwa:device:Europe/Berlin $(GGIR_WORK)/wearable-7d-100hz.csv:csv100:Europe/Berlin \
	  $(GGIR_WORK)/hard-cases.cwa:device:Europe/Berlin $(GGIR_WORK)/dst-autumn.cwa:device:Europe/Berlin \
	  $(GGIR_WORK)/wrist-3day.bin:device:Europe/Berlin $(GGIR_WORK)/wrist-3day.gt3x:device:Europe/Berlin

.PHONY: bench bench-peers
# BENCH_BUILD_FLAGS: extra `swift build` flags, e.g. --scratch-path DIR.
BENCH_BUILD_FLAGS ?=
bench: deps bench-peers
	$(SWIFT) build -c release $(BENCH_BUILD_FLAGS) --product sleepsta
	SLEEPSTA_BENCH=1 $(SWIFT) build -c release $(BENCH_BUILD_FLAGS) --product sleepsta-bench
	bin=$$($(SWIFT) build -c release $(BENCH_BUILD_FLAGS) --show-bin-path) && \
	$$bin/sleepsta-bench all --work $(BENCH_WORK) --sleepsta $$bin/sleepsta \
	  --python $(BENCH_VENV)/bin/python --json $(REPORTS)/bench.json --days $(BENCH_DAYS) --repeats $(BENCH_REPEATS) \
	  $(if $(KEEP),--keep,)
	@# GGIR beside sleepsta on the same .cwa, where R and GGIR are installed (../shared/peers/ggir):
	@# its wall time and peak memory, after the nights of `--method ggir` are checked against its own.
	@bin=$$($(SWIFT) build -c release $(BENCH_BUILD_FLAGS) --show-bin-path) && \
	if python3 bench/validate_ggir.py --check; then \
	  test -f $(BENCH_WORK)/ggir/wearable-$(BENCH_DAYS)d-100hz.cwa || $$bin/sleepsta-bench generate --work $(BENCH_WORK)/ggir --days $(BENCH_DAYS) --only-cwa; \
	  python3 bench/validate_ggir.py --sleepsta $$bin/sleepsta --work $(BENCH_WORK)/ggir --rules default \
	    $(BENCH_WORK)/ggir/wearable-$(BENCH_DAYS)d-100hz.cwa:device:Europe/Berlin; \
	  $(if $(KEEP),true,rm -rf $(BENCH_WORK)/ggir); \
	fi

# The peers' virtual environment, made once (about 2 minutes, 0.9 GB). Without network the bench
# still runs, and says that the peers were skipped.
bench-peers:
	@test -f $(BENCH_VENV)/.peers-installed || { \
	  python3 -c "import venv, ensurepip" 2>/dev/null || { \
	    if [ "$$(id -u)" = "0" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; \
	    else echo "the peers need python3-venv: sudo apt-get install -y python3-venv"; fi; }; \
	  echo "creating $(BENCH_VENV) with the Python peers (agcounts, pyActigraphy 1.2.2, pandas)"; \
	  python3 -m venv $(BENCH_VENV) && \
	  $(BENCH_VENV)/bin/pip install -q $(PEER_PACKAGES) && \
	  $(BENCH_VENV)/bin/pip install -q --no-deps pyactigraphy==1.2.2 accelerometer==6.2.3 && \
	  touch $(BENCH_VENV)/.peers-installed || \
	  echo "could not install the peers: the bench runs without them"; }
	@test ! -f $(BENCH_VENV)/.peers-installed || test -f $(BENCH_VENV)/.peers-columnar || { \
	  echo "adding $(COLUMNAR_PEERS) to $(BENCH_VENV)"; \
	  $(BENCH_VENV)/bin/pip install -q $(COLUMNAR_PEERS) && touch $(BENCH_VENV)/.peers-columnar || \
	  echo "could not install $(COLUMNAR_PEERS): their rows are skipped"; }
	@test ! -f $(BENCH_VENV)/.peers-installed || test -f $(BENCH_VENV)/.peers-actfast || { \
	  echo "adding $(CWA_PEERS) to $(BENCH_VENV)"; \
	  $(BENCH_VENV)/bin/pip install -q $(CWA_PEERS) && touch $(BENCH_VENV)/.peers-actfast || \
	  echo "could not install $(CWA_PEERS) (no network?): its row is skipped"; }
