# Everything runs from a local virtualenv that the first target creates.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench train clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,all]"
	touch $(STAMP)

setup: $(STAMP)

# The demo: pin the bundled espresso refund conversation into ./scratchpad.db.
demo: $(STAMP)
	@$(BIN)/scratchpad ingest examples/espresso.jsonl --thread espresso
	@$(BIN)/scratchpad render --thread espresso
	@$(BIN)/scratchpad open --thread espresso

# ruff, the type checker, and the import contract (the layers of pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check scratchpad extractors schemas tests benchmarks
	$(BIN)/pyright
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_ingest.py --corpus tests/data/sgd_dev.jsonl
	$(BIN)/python benchmarks/bench_patterns.py

# Rebuild the sentence act model shipped in extractors/trained/acts_model (fixed seed,
# pinned data: the labelled sets' train splits and SGD's dialogue acts).
train: $(STAMP)
	$(BIN)/python -m extractors.trained.train --out extractors/trained/acts_model \
		--labelled tests/data/commitments_labelled.jsonl tests/data/commitments_blind.jsonl \
		--questions tests/data/questions_labelled.jsonl --sgd tests/data/sgd_acts_weak.jsonl
	$(BIN)/python -m extractors.dialogue.train_fulfilment \
		--labelled tests/data/commitments_blind.jsonl

clean:
	rm -rf $(VENV) scratchpad.db scratchpad.db-wal scratchpad.db-shm .pytest_cache .ruff_cache
