"""Question gold for SGD dialogues nobody here has read: `sgd_acts.jsonl` as an eval corpus.

`../shared/eval/sgd_acts.jsonl` holds 4,000 SGD train dialogues with the dataset's own
dialogue acts. This script turns a slice of them into the eval corpus format (the
`dev.jsonl` contract: gold `turn` 0-based, `answered_turn` 0-based or null), with the
question gold built from the acts as `../shared/eval/README.md` builds it:

* a user `REQUEST` of a slot is answered at the first later assistant turn that
  `INFORM`s or `OFFER`s that slot;
* an assistant `REQUEST` is answered at the first later user turn that `INFORM`s the
  slot; a yes/no proposal (a `REQUEST` that names its value) also by an `AFFIRM` or
  `NEGATE` in the next user turn;
* otherwise it stays open.

So `scratchpad eval` can report ``open_left_full`` / ``open_precision_full`` on
dialogues the question rules were never read against. The slice kept for that is the
**last 900 rows** (3101-4000): score it only to report, never while changing rules; read
earlier rows instead. Values get no gold here (the eval's value figures are meaningless
on this corpus; only the question figures count).

    python benchmarks/sgd_questions.py --rows 3101-4000 > /tmp/sgd_unseen.jsonl
    scratchpad extract /tmp/sgd_unseen.jsonl --json > /tmp/sgd_unseen.records.jsonl
    scratchpad eval /tmp/sgd_unseen.jsonl --records /tmp/sgd_unseen.records.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ACTS = ROOT.parent / "shared" / "eval" / "sgd_acts.jsonl"
#: What answers a question asked by each role: acts of the other role that give the slot.
ANSWERS = {"user": ("INFORM", "OFFER"), "assistant": ("INFORM",)}


def questions(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The gold questions of one dialogue, from its acts (turns 0-based)."""
    turns = {t["turn"]: t for t in row["acts"]}
    out = []
    for number in sorted(turns):
        asked = turns[number]
        for act in asked["acts"]:
            if act["act"] != "REQUEST" or not act.get("slot"):
                continue
            answered = _answer(turns, number, asked["role"], act)
            out.append({"turn": number - 1, "asker": asked["role"], "slot": act["slot"],
                        "answered_turn": None if answered is None else answered - 1})
    return out


def _answer(turns: dict[int, dict[str, Any]], number: int, role: str,
            act: dict[str, Any]) -> int | None:
    for later in sorted(t for t in turns if t > number):
        turn = turns[later]
        if turn["role"] == role:
            continue
        for reply in turn["acts"]:
            if reply["act"] in ANSWERS[role] and reply.get("slot") == act["slot"]:
                return later
            yes_no = role == "assistant" and act.get("values") and later == number + 1
            if yes_no and reply["act"] in ("AFFIRM", "NEGATE"):
                return later
    return None


def rows(first: int, last: int, acts: Path = ACTS) -> Iterator[dict[str, Any]]:
    """Rows ``first``..``last`` (1-based, inclusive) of the acts file, as corpus rows."""
    with acts.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if first <= n <= last:
                row = json.loads(line)
                yield {"id": row["id"], "source": row["source"], "messages": row["messages"],
                       "gold": {"values": [], "questions": questions(row)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="3101-4000",
                        help="1-based inclusive row range of sgd_acts.jsonl (default: the "
                             "frozen last 900)")
    parser.add_argument("--acts", type=Path, default=ACTS,
                        help="the sgd_acts.jsonl file (default: ../shared/eval/)")
    args = parser.parse_args()
    if not args.acts.is_file():
        parser.exit(2, f"sgd_questions: no acts file at {args.acts} (give --acts)\n")
    first, _, last = args.rows.partition("-")
    for row in rows(int(first), int(last or first), args.acts):
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
