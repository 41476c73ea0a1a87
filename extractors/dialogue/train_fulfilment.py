"""Fit the fulfilment model (:mod:`extractors.dialogue.fulfilment`) from pinned data.

Pairs come from labelled sets in the corpus format whose commitments carry
``final_status`` and ``status_turn``, ``train`` split only: every ``promised`` or ``agreed``
commitment (as it ends) is paired with each later turn up to the one that ended it (or
the end of the conversation); the pair is positive when that turn is where the
commitment ends ``fulfilled``. ``make train`` runs ``python -m
extractors.dialogue.train_fulfilment --labelled tests/data/commitments_blind.jsonl``; add
``--report dev`` to print how the pairs of another split score.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from extractors.base import TurnView
from extractors.dialogue.fulfilment import MODEL, TurnEvidence, pair_features
from extractors.trained.linear import MODEL_DIR, LinearModel, fit

PENDING = ("promised", "agreed")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def turn_views(cid: str, messages: list[dict[str, Any]]) -> list[TurnView]:
    """The turns of a conversation as the pipeline would see them (system messages
    dropped; a tool result carries its call's name and arguments)."""
    calls: dict[str, tuple[str, str]] = {}
    out: list[TurnView] = []
    for m in messages:
        if m.get("role") == "system":
            continue
        for call in m.get("tool_calls") or []:
            fn = call.get("function", {})
            calls[call.get("id", "")] = (fn.get("name", ""), fn.get("arguments", ""))
        name, arguments = calls.get(m.get("tool_call_id", ""), (None, None))
        out.append(TurnView(thread=cid, number=len(out) + 1, role=m["role"],
                            text=_text(m.get("content")),
                            tool_name=name if m["role"] == "tool" else None,
                            tool_arguments=arguments if m["role"] == "tool" else None,
                            calls_tools=bool(m.get("tool_calls"))))
    return out


def pairs(path: Path, split: str) -> Iterator[tuple[dict[str, float], int]]:
    """(features, label) for each (commitment, later turn) pair of ``split``."""
    with path.open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for row in rows:
        if row.get("split", "train") != split:
            continue
        turns = turn_views(row["id"], row["messages"])
        evidence = [TurnEvidence.of(t) for t in turns]
        for g in row["gold"].get("commitments", []):
            subtype = g.get("final_subtype", g["subtype"])
            if subtype not in PENDING:
                continue
            ended = g.get("status_turn")
            last = ended if ended is not None else len(turns) - 1
            for u in range(g["turn"] + 1, min(last, len(turns) - 1) + 1):
                if evidence[u].failed:
                    continue  # never scored: a failed tool result carries out nothing
                label = int(u == ended and g["final_status"] == "fulfilled")
                yield (pair_features(g["text"], g.get("actor"), subtype, evidence[u],
                                     u - g["turn"]), label)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Fit the fulfilment model from labelled sets.")
    ap.add_argument("--labelled", type=Path, nargs="+", required=True)
    ap.add_argument("--out", type=Path, default=MODEL_DIR / f"{MODEL}.json")
    ap.add_argument("--report", default=None, help="also score the pairs of this split")
    args = ap.parse_args(argv)
    data = [p for path in args.labelled for p in pairs(path, "train")]
    # weak regularisation, run to convergence: chosen on the dev split (end status
    # 0.710 -> 0.727 against steps=3000, rate=0.5, l2=1e-3, with the same features)
    model = fit(MODEL, [x for x, _ in data], [y for _, y in data], steps=20000, rate=1.0,
                l2=1e-4, trained_on={
        "sets": sorted(p.name for p in args.labelled), "split": "train",
        "pairs": len(data), "positive": sum(y for _, y in data)})
    model.save(args.out)
    print(f"{len(data)} pairs, {sum(y for _, y in data)} positive -> {args.out}")
    if args.report:
        _report(model, [p for path in args.labelled for p in pairs(path, args.report)])


def _report(model: LinearModel, data: list[tuple[dict[str, float], int]]) -> None:
    scored = [(model.score(x), y) for x, y in data]
    positives = sum(y for _, y in scored)
    for threshold in (0.3, 0.4, 0.5, 0.6, 0.7):
        hits = [y for s, y in scored if s >= threshold]
        print(f"threshold {threshold}: {len(hits)} fired, precision "
              f"{sum(hits) / max(1, len(hits)):.3f}, recall {sum(hits) / max(1, positives):.3f}")


if __name__ == "__main__":
    main()
