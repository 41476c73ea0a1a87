"""Scratchpad's full pipeline against Presidio's AnalyzerEngine, side by side, same turns.

Run: ``pip install -e ".[bench]"`` once, then
``python benchmarks/bench_presidio.py [--corpus PATH] [--limit N]``. Prints one JSON object.

Both sides get the same ~40-word turns (consecutive dev-corpus turns joined, as in
``bench_patterns.py``) and the same spaCy model (``en_core_web_sm``, else its PyPI
re-upload). Presidio runs its default recognizers (regex + the spaCy NER) with
``analyze(text, language="en")``; Scratchpad ingests each turn as the next message of its
conversation with every extractor on (NER, dependency parse, patterns, resolvers), as a
live harness does. The two are timed turn by turn, alternately, so that the noise of a
shared machine falls on both alike.

* ``*_turn_ms_median`` / ``*_turn_ms_p95``: per-turn latency;
* ``*_turns_per_s``: the same turns, one at a time;
* ``bulk``: all the turns at once, each tool in a fresh process, **start-up included**
  (interpreter, imports, model load), wall time from launch to exit: Scratchpad as a user
  runs it, ``scratchpad extract CORPUS --json`` (every core); Presidio's
  ``AnalyzerEngine.analyze`` turn by turn (the reference of the speed goal), and its own
  bulk API, ``BatchAnalyzerEngine.analyze_iterator`` over the same turns with
  ``batch_size`` 64 on one process and on every core (``n_process``);
  ``bulk_ratio``: Scratchpad's turns/s over the turn-by-turn AnalyzerEngine's;
* ``*_load_s``: building each engine, model load included; ``rss_mb`` at the end;
* ``scratchpad_split_ms``: where Scratchpad's turn goes, mean ms per turn: ``annotate``
  (spaCy over the sentences extractors asked for, ``needs`` included), ``needs``
  (deciding those sentences), ``extract`` (extractors and resolvers), ``store``.

Offline: Presidio's email recognizer would fetch a public-suffix list, so this sets
``TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS=""`` before importing it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from bench_patterns import joined_turns  # noqa: E402

from extractors.text import nlp as nlp_module  # noqa: E402
from scratchpad import Scratchpad  # noqa: E402
from scratchpad.bulk import cores  # noqa: E402
from scratchpad.messages import read_corpus  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def presidio_engine(model: str):
    """Presidio's AnalyzerEngine on ``model`` with its default recognizer registry."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]})
    return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])


PRESIDIO_BULK = """
import json, os, sys
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
sys.path.insert(0, {here!r})
from bench_presidio import presidio_engine
engine = presidio_engine({model!r})
texts = [m["content"] for line in open({corpus!r}) for m in json.loads(line)["messages"]]
if {n_process} == 0:
    for text in texts:
        engine.analyze(text=text, language="en")
else:
    from presidio_analyzer import BatchAnalyzerEngine
    BatchAnalyzerEngine(analyzer_engine=engine).analyze_iterator(
        texts, language="en", batch_size=64, n_process={n_process})
"""


def wall(argv: list[str]) -> float:
    """Seconds from launching ``argv`` to its exit (its output discarded)."""
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def bulk(conversations: list[list[str]], model: str) -> dict[str, float]:
    """Turns per second of each tool over all the turns, start-up included."""
    turns = sum(len(c) for c in conversations)
    exe = shutil.which("scratchpad", path=str(Path(sys.executable).parent)) or "scratchpad"
    with tempfile.TemporaryDirectory() as tmp:
        corpus = str(Path(tmp) / "turns.jsonl")
        with open(corpus, "w", encoding="utf-8") as f:
            for n, turns_of in enumerate(conversations):
                messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": t}
                            for i, t in enumerate(turns_of)]
                f.write(json.dumps({"id": f"b{n}", "messages": messages}) + "\n")

        def presidio(n_process: int) -> float:
            code = PRESIDIO_BULK.format(here=str(Path(__file__).parent), model=model,
                                        corpus=corpus, n_process=n_process)
            return round(turns / wall([sys.executable, "-c", code]), 1)

        ours = round(turns / wall([exe, "extract", corpus, "--json"]), 1)
        theirs = presidio(0)
        return {"cores": cores(), "scratchpad_extract_turns_per_s": ours,
                "presidio_analyze_turns_per_s": theirs,
                "presidio_batch_1_process_turns_per_s": presidio(1),
                "presidio_batch_all_cores_turns_per_s": presidio(cores()),
                "bulk_ratio": round(ours / theirs, 2)}


def timed(owner: object, method: str, totals: dict[str, float], key: str) -> None:
    """Wrap ``owner.method`` so that its wall time adds up in ``totals[key]``."""
    inner = getattr(owner, method)

    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - started

    setattr(owner, method, wrapper)


def summary(prefix: str, ms: list[float]) -> dict[str, float]:
    return {f"{prefix}_turn_ms_median": round(statistics.median(ms), 2),
            f"{prefix}_turn_ms_p95": round(statistics.quantiles(ms, n=20)[18], 2),
            f"{prefix}_turns_per_s": round(len(ms) / (sum(ms) / 1000), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests" / "data" / "sgd_dev.jsonl")
    parser.add_argument("--limit", type=int, default=720,
                        help="conversations to read (720: about 2,000 turns)")
    args = parser.parse_args()
    rows = read_corpus(args.corpus)[: args.limit]
    conversations = [joined_turns([row]) for row in rows]
    conversations = [c for c in conversations if c]

    started = time.perf_counter()
    nlp = nlp_module.load()
    pad = Scratchpad(":memory:")
    pad.ingest("warm-up", [{"role": "user", "content": "Order A-77215, refund €930."}])
    ours_load = time.perf_counter() - started
    model = nlp.meta.get("lang", "en") + "_" + nlp.meta.get("name", "core_web_sm")
    model = next((m for m in nlp_module.DEFAULT_MODELS if m.startswith(model)), model)
    started = time.perf_counter()
    engine = presidio_engine(model)
    engine.analyze(text="Order A-77215, refund €930.", language="en")
    presidio_load = time.perf_counter() - started

    split = {"annotate": 0.0, "needs": 0.0, "extract": 0.0, "store": 0.0}
    timed(pad.processor, "annotate", split, "annotate")
    timed(pad.processor, "needs", split, "needs")
    timed(pad.processor, "process", split, "extract")
    timed(pad.store, "add_turn", split, "store")
    ours: list[float] = []
    theirs: list[float] = []
    for n, turns in enumerate(conversations):
        messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": t}
                    for i, t in enumerate(turns)]
        for k, text in enumerate(turns, 1):
            t0 = time.perf_counter()
            engine.analyze(text=text, language="en")
            t1 = time.perf_counter()
            pad.ingest(f"c{n}", messages[:k])
            t2 = time.perf_counter()
            theirs.append((t1 - t0) * 1000)
            ours.append((t2 - t1) * 1000)
    pad.close()

    out = {
        "model": model,
        "turns": len(ours),
        "words_per_turn": round(statistics.mean(len(t.split()) for c in conversations
                                                for t in c), 1),
        "scratchpad_load_s": round(ours_load, 2),
        "presidio_load_s": round(presidio_load, 2),
        **summary("scratchpad", ours),
        **summary("presidio", theirs),
        "bulk": bulk(conversations, model),
        "speedup_median": round(statistics.median(theirs) / statistics.median(ours), 2),
        "scratchpad_split_ms": {k: round(v * 1000 / len(ours), 2) for k, v in split.items()},
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
