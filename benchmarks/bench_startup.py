"""How long the command line takes to answer when it has nothing heavy to do.

Run: ``python benchmarks/bench_startup.py [--runs N]``. Prints one JSON object: for
``scratchpad --help`` and ``scratchpad open`` (over a database holding the bundled
espresso thread), the median and the fastest wall time of ``--runs`` fresh processes, in
seconds, plus the time of the Python interpreter alone for scale. Neither command may load
spaCy or build the extractors: the extractors' patterns compile at first use, the CLI
imports the pipeline only inside the commands that run it, and a read-only pad
(``extractors=[]``) never builds its registry.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(argv: list[str], runs: int) -> dict[str, float]:
    """Median and fastest wall time of ``runs`` runs of ``argv`` (output discarded)."""
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        seconds.append(time.perf_counter() - started)
    return {"median_s": round(statistics.median(seconds), 3), "fastest_s": round(min(seconds), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    exe = shutil.which("scratchpad", path=str(Path(sys.executable).parent)) or "scratchpad"
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        subprocess.run([exe, "ingest", str(ROOT / "examples" / "espresso.jsonl"),
                        "--thread", "espresso", "--db", db], check=True,
                       stdout=subprocess.DEVNULL)
        out = {
            "python": timed([sys.executable, "-c", "pass"], args.runs),
            "help": timed([exe, "--help"], args.runs),
            "open": timed([exe, "open", "--db", db], args.runs),
        }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
