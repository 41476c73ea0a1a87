"""Compaction speed: a long transcript already ingested, compacted with the deterministic
summarizer.

Run: ``python benchmarks/bench_compact.py [--tokens N] [--repeats R]``. Prints one JSON
object: the transcript's tokens and turns, the time one ``compact()`` call takes (the
first, which summarizes every dropped turn, and the median of later calls that each see
20 new tool steps), tokens after, and the compression ratio (before / after).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scratchpad import Scratchpad  # noqa: E402
from scratchpad.compaction import compact  # noqa: E402
from scratchpad.messages import parse_message  # noqa: E402
from scratchpad.tokens import message_tokens, messages_tokens  # noqa: E402
from tests.synthetic_session import session, steps  # noqa: E402


def transcript(target: int) -> list[dict]:
    """The synthetic coding session grown to about ``target`` tokens."""
    n = 50
    while True:
        messages = session(n)
        total = messages_tokens(message_tokens(parse_message(m)) for m in messages)
        if total >= target:
            return messages
        n = int(n * target / total) + 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=60_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    messages = transcript(args.tokens)
    window = 16_000
    with Scratchpad(":memory:") as pad:
        pad.ingest("bench", messages)  # ingest is done before compaction, as in a harness
        started = time.perf_counter()
        first = compact(messages, pad=pad, thread="bench", window=window, keep_recent=8)
        first_ms = (time.perf_counter() - started) * 1000
        later: list[float] = []
        out = first
        next_step = 10**6
        for _ in range(args.repeats):
            grown = out.messages + steps(next_step, 20)
            next_step += 20
            started = time.perf_counter()
            out = compact(grown, pad=pad, thread="bench", window=window, keep_recent=8)
            later.append((time.perf_counter() - started) * 1000)
    print(json.dumps({
        "tokens_before": first.log["tokens_before"],
        "turns": len(messages) - 1,
        "window": window,
        "first_compaction_ms": round(first_ms, 1),
        "later_compaction_ms_median": round(statistics.median(later), 1),
        "tokens_after": first.log["tokens_after"],
        "compression_ratio": round(first.log["tokens_before"] / first.log["tokens_after"], 1),
    }))


if __name__ == "__main__":
    main()
