"""Stress: many writers on one file, hostile input shapes, threads full of open questions.

Run: ``python benchmarks/bench_stress.py`` (about three minutes on two cores; the
``--quick`` flag shrinks every table). Prints one JSON object:

* ``writers``: N processes (``scratchpad ingest`` on the bundled example, each into its own
  thread) started together on one new database file, and two processes on the same
  thread: failed writers, turns lost or stored twice, wall time and turns per second.
* ``shapes``: one user message of each hostile shape (nested parentheses, a currency sign
  and digits, "A-" repeated, dotted runs, a run of spaces, one endless sentence) at each
  size: seconds to ingest it, the growth from the smallest size to four times it
  (4.0 is linear), and how many regex timeouts it caused (0 is what linear handling
  gives).
* ``questions``: one thread of N short turns that each ask three questions nobody
  answers: milliseconds per turn, and the ratio of the largest to the smallest N (flat is
  what a bounded resolver window gives).
"""

from __future__ import annotations

import argparse
import json
import logging
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scratchpad import Scratchpad, read_messages  # noqa: E402

EXAMPLE = ROOT / "examples" / "espresso.jsonl"
CLI = [sys.executable, "-c", "from scratchpad.cli import main; main()"]

SHAPES = {
    "nested parentheses": lambda n: "(" * (n // 2) + ")" * (n // 2),
    "currency and digits": lambda n: "€" + "1" * (n - 1),
    "A- repeated": lambda n: "A-" * (n // 2),
    "dotted run": lambda n: "a." * (n // 2),
    "run of spaces": lambda n: "x" + " " * (n - 2) + "y",
    "one endless sentence": lambda n: ("refund the order please " * (n // 24 + 1))[:n],
}


def writers(counts: list[int], db_dir: Path) -> list[dict[str, object]]:
    """Start N ``scratchpad ingest`` processes at once on one new file, and two on one
    thread; count what failed, was lost or was stored twice."""
    expected = sum(1 for m in read_messages(EXAMPLE) if m.role != "system")
    rows = []
    for n, same in [*((n, False) for n in counts), (2, True)]:
        db = db_dir / f"w{n}{'same' if same else ''}.db"
        threads = ["same"] * n if same else [f"t{i}" for i in range(n)]
        started = time.perf_counter()
        procs = [subprocess.Popen([*CLI, "ingest", str(EXAMPLE), "--db", str(db),
                                   "--thread", thread], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for thread in threads]
        outs = [p.communicate() for p in procs]
        wall = time.perf_counter() - started
        failed = [err.strip().splitlines()[-1] if err.strip() else f"exit {p.returncode}"
                  for p, (_, err) in zip(procs, outs, strict=True) if p.returncode != 0]
        with sqlite3.connect(db) as conn:
            stored = dict(conn.execute("select thread, count(*) from turns group by thread"))
            distinct = dict(conn.execute(
                "select thread, count(distinct turn) from turns group by thread"))
        wanted = {t: expected for t in set(threads)}
        rows.append({
            "writers": n, "same_thread": same, "failed_writers": len(failed),
            "failures": failed[:3],
            "lost_turns": sum(max(0, wanted[t] - stored.get(t, 0)) for t in wanted),
            "duplicated_turns": sum(stored.get(t, 0) - distinct.get(t, 0) for t in wanted),
            "wall_s": round(wall, 2),
            "turns_per_s": round(sum(stored.values()) / wall, 1),
        })
    return rows


class _Timeouts(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "timed out" in record.getMessage() or "budget" in record.getMessage():
            self.count += 1


def shapes(sizes: list[int]) -> list[dict[str, object]]:
    """Seconds to ingest one message of each hostile shape at each size."""
    counter = _Timeouts()
    logging.getLogger().addHandler(counter)
    logging.getLogger().setLevel(logging.WARNING)
    rows = []
    with Scratchpad(":memory:") as pad:
        pad.ingest("warm", [{"role": "user", "content": "Warm up: order A-1, €5, Friday."}])
        for name, make in SHAPES.items():
            seconds, before = [], counter.count
            for size in sizes:
                started = time.perf_counter()
                pad.ingest(f"{name}{size}", [{"role": "user", "content": make(size)}])
                seconds.append(round(time.perf_counter() - started, 3))
            four = sizes.index(sizes[0] * 4) if sizes[0] * 4 in sizes else len(sizes) - 1
            rows.append({"shape": name, "sizes": sizes, "seconds": seconds,
                         "growth_4x": round(seconds[four] / max(seconds[0], 1e-3), 1),
                         "regex_timeouts": counter.count - before})
    logging.getLogger().removeHandler(counter)
    return rows


def _questions(n: int) -> list[dict[str, str]]:
    return [{"role": "user" if i % 2 == 0 else "assistant",
             "content": f"Is item {i} ready? What about part {i + 7}? Could you check box "
                        f"{i * 3}?"} for i in range(n)]


def questions(counts: list[int]) -> dict[str, object]:
    """Milliseconds per turn of a thread of N question-only turns, ingested at once."""
    per_turn = []
    with Scratchpad(":memory:") as pad:
        pad.ingest("warm", _questions(4))
        for n in counts:
            started = time.perf_counter()
            pad.ingest(f"q{n}", _questions(n))
            per_turn.append(round((time.perf_counter() - started) / n * 1000, 2))
    return {"turns": counts, "ms_per_turn": per_turn,
            "ratio": round(per_turn[-1] / per_turn[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small tables (a smoke run)")
    args = parser.parse_args()
    counts = [1, 2] if args.quick else [1, 2, 4, 8]
    sizes = [2_000, 4_000] if args.quick else [10_000, 20_000, 40_000, 80_000]
    turns = [100, 200] if args.quick else [1_000, 2_000, 4_000]
    with tempfile.TemporaryDirectory() as tmp:
        out = {"writers": writers(counts, Path(tmp)), "shapes": shapes(sizes),
               "questions": questions(turns)}
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
