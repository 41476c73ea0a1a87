"""Long sessions: does the block keep what matters, within its bound, however long it runs?

Generates coding sessions (200, 1,000 and 5,000 tool steps) and support threads with
planted facts whose names and values are drawn from a seed (``tests/long_session.py``),
and compacts each one 20 times as it grows -- each round's output fed back with the next
steps appended, as an agent harness does -- at windows of 8k, 16k and 32k tokens.

Per session and window it reports: the share of rounds in which every planted fact is in
the output verbatim (must be 100%), the share of rounds whose output fits the window,
counted independently of ``compact()``'s own log (must be 100%), the block's tokens per
round (largest, and the bound: ``BLOCK_SHARE`` of the window), and seconds per
compaction (median and largest; ingest of the new steps included, as in a harness).

Run: ``python benchmarks/bench_long_session.py`` (about 10 minutes on 2 cores);
``--quick`` for a small run. Prints a table on stderr and one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scratchpad import Scratchpad  # noqa: E402
from scratchpad.compaction import BLOCK_SHARE, compact, is_block  # noqa: E402
from scratchpad.messages import parse_message  # noqa: E402
from scratchpad.tokens import count, message_tokens, messages_tokens  # noqa: E402
from tests.long_session import CodingSession, SupportThread  # noqa: E402

ROUNDS = 20


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False) if content else ""


def run(kind: str, steps: int, window: int, seed: int, rounds: int = ROUNDS,
        keep_recent: int = 8) -> dict[str, Any]:
    """Grow one session over ``rounds`` compactions; return its figures."""
    session = CodingSession(seed) if kind == "coding" else SupportThread(seed)
    per_round = max(steps // rounds, 1)
    messages = session.opening + session.steps(1, per_round)
    next_step = per_round + 1
    present = fits = compacted = 0
    block_tokens: list[int] = []
    seconds: list[float] = []
    missing: dict[str, int] = {}
    with Scratchpad(":memory:") as pad:
        for _ in range(rounds):
            started = time.perf_counter()
            out = compact(messages, pad=pad, thread="s", window=window,
                          keep_recent=keep_recent)
            seconds.append(time.perf_counter() - started)
            cost = messages_tokens(message_tokens(parse_message(m)) for m in out.messages)
            fits += cost <= window
            text = "\n".join(_text(m) for m in out.messages)
            gone = [name for name, value in session.planted.items() if value not in text]
            present += not gone
            for name in gone:
                missing[name] = missing.get(name, 0) + 1
            blocks = [m for m in out.messages if is_block(m)]
            if out.changed and blocks:
                compacted += 1
                block = _text(blocks[0]).split("=== End of carried forward ===")[0]
                block_tokens.append(count(block + "=== End of carried forward ===\n"))
            messages = out.messages + session.steps(next_step, per_round)
            next_step += per_round
    return {
        "session": kind, "steps": per_round * rounds, "window": window, "seed": seed,
        "rounds": rounds, "compacted_rounds": compacted,
        "planted": len(session.planted),
        "planted_present_pct": round(100 * present / rounds, 1),
        "missing": missing,
        "within_window_pct": round(100 * fits / rounds, 1),
        "block_tokens_max": max(block_tokens, default=0),
        "block_tokens_last": block_tokens[-1] if block_tokens else 0,
        "block_bound": int(window * BLOCK_SHARE),
        "seconds_median": round(statistics.median(seconds), 3),
        "seconds_max": round(max(seconds), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one small coding session and one support thread, small windows")
    parser.add_argument("--seed", type=int, default=7,
                        help="the first seed (each session gets its own)")
    args = parser.parse_args()
    if args.quick:
        plan = [("coding", 100, 2000), ("support", 100, 1500)]
        rounds = 5
    else:
        plan = [(kind, steps, window)
                for kind, sizes in (("coding", (200, 1000, 5000)), ("support", (200, 1000)))
                for steps in sizes for window in (8000, 16000, 32000)]
        rounds = ROUNDS
    rows = []
    for i, (kind, steps, window) in enumerate(plan):
        row = run(kind, steps, window, args.seed + i, rounds=rounds)
        rows.append(row)
        print(f"{kind:8} {row['steps']:5} steps  window {window:6}  planted present "
              f"{row['planted_present_pct']:5.1f}%  "
              f"within window {row['within_window_pct']:5.1f}%  "
              f"block max {row['block_tokens_max']:5} (bound {row['block_bound']})  "
              f"s/compaction {row['seconds_median']:.3f} (max {row['seconds_max']:.3f})",
              file=sys.stderr, flush=True)
    print(json.dumps({
        "sessions": rows,
        "planted_present_pct": min(r["planted_present_pct"] for r in rows),
        "within_window_pct": min(r["within_window_pct"] for r in rows),
        "block_within_bound": all(r["block_tokens_max"] <= r["block_bound"] for r in rows),
    }))


if __name__ == "__main__":
    main()
