"""The benchmark's table: the figures the README quotes, from ``totals``.

``python -m benchmarks.fidelity.report [results.json] [--update]`` recomputes the totals
from the per-conversation figures of a results file and prints the table again;
``--update`` also writes the recomputed totals into the file (after a change to how
totals are summed, without asking the model again). ``--from-partial PARTIAL [--out
FILE]`` makes a results file (``"complete": false``) from the conversations a run cut
short had finished.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "n/a"


def table(t: dict[str, Any]) -> str:
    """A Markdown table of the totals (and the per-round retention of long sessions)."""
    facts = t["facts_compacted"]
    rows = [
        "| | A: rolling summary alone | B: Scratchpad block + summary |",
        "| --- | --- | --- |",
        f"| must-carry facts verbatim in the compacted context | "
        f"{_pct(t['A']['verbatim'], facts)} | {_pct(t['B']['verbatim'], facts)} |",
        f"| facts present but changed (near-miss value) | {t['A']['changed']} | "
        f"{t['B']['changed']} |",
        f"| QA: questions answered right from the context | "
        f"{_pct(t['qa_A']['correct'], t['qa_A']['asked'])} | "
        f"{_pct(t['qa_B']['correct'], t['qa_B']['asked'])} |",
        f"| QA: status questions answered with another status | "
        f"{t['qa_A']['status_flips']} | {t['qa_B']['status_flips']} |",
        f"| tokens sent, mean per conversation (full transcript: {t['mean_tokens_full']}) | "
        f"{t['A']['mean_tokens']} | {t['B']['mean_tokens']} |",
    ]
    full = t["qa_full"]
    lines = [f"{t['cases']} conversations, {facts} must-carry facts in compacted turns; "
             f"B pinned {t['B']['pinned_facts']} of them and kept "
             f"{t['B']['pinned_verbatim']} verbatim.", "", *rows, "",
             f"QA from the full, uncompacted transcript ({full['cases']} conversations that "
             f"fit the model's context): {_pct(full['correct'], full['asked'])}."]
    if t.get("long_rounds"):
        lines += ["", "| round | A verbatim | B verbatim |", "| --- | --- | --- |"]
        lines += [f"| {r['round']} | {r['A']:.0%} | {r['B']:.0%} |" for r in t["long_rounds"]]
    return "\n".join(lines)


def from_partial(path: Path) -> dict[str, Any]:
    """A results document from a run's partial file (a run cut short): the finished
    conversations, their totals, and ``"complete": false``."""
    from benchmarks.fidelity.run import same_run, totals
    from benchmarks.fidelity.server import ServerFailed, server_version

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    if not rows:
        raise SystemExit(f"Error: {path} holds no finished conversation")
    key = rows[-1]["key"]
    try:
        server: str | None = server_version()
    except ServerFailed:  # not installed here: the file does not say which ran
        server = None
    cases = [r["result"] for r in rows if same_run(r["key"], key, r["result"]["source"])]
    return {"settings": key["settings"], "model": key["model"], "server": server,
            "complete": False, "totals": totals(cases), "failed": [], "cases": cases,
            "wall_seconds": round(sum(c["seconds"] for c in cases), 1)}


def main(argv: list[str]) -> int:
    from benchmarks.fidelity.run import totals

    update = "--update" in argv
    if "--from-partial" in argv:
        i = argv.index("--from-partial")
        document = from_partial(Path(argv[i + 1]))
        out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else None
        if out is not None:
            out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                           encoding="utf-8")
        print(table(document["totals"]))
        return 0
    paths = [a for a in argv if a != "--update"]
    path = Path(paths[0]) if paths else Path(__file__).resolve().parents[1] / "results" / \
        "fidelity.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["totals"] = totals(document["cases"])
    if update:
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    print(table(document["totals"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
