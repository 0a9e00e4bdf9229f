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
APT_PACKAGES := libsqlite3-dev libgd-dev fonts-dejavu-core pkg-config tzdata python3 zlib1g-dev
BIN          := .build/$(CONFIG)/sleepsta

.PHONY: all deps build test report sample-data clean help

all: build

help:
	@echo "make report  build, ingest every recording under $(DATA), write $(DB) and $(REPORTS)/"
	@echo "make test    build and run the whole test suite"
	@echo "make deps    install missing Debian packages ($(APT_PACKAGES))"
	@echo "make build   release build of .build/$(CONFIG)/sleepsta"
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

report: build sample-data
	$(BIN) run --data $(DATA) --db $(DB) --reports $(REPORTS) --interval $(INTERVAL) --tz $(SAMPLE_TZ)
	$(BIN) compare --intervals $(COMPARE) --db $(DB) --reports $(REPORTS)

# Release mode: the numeric tests run 40-600x slower in debug builds (see TOOLCHAIN notes in README).
# `swift test` itself builds with -enable-testing, which @testable imports need in release mode.
test: deps
	$(SWIFT) test -c $(CONFIG)

clean:
	rm -rf .build $(REPORTS)/*/ $(REPORTS)/*.html $(REPORTS)/*.png $(REPORTS)/*.json
	rm -f $(DB) $(DB)-wal $(DB)-shm $(DB).lock $(DATA)/phone-50hz-sam.csv
