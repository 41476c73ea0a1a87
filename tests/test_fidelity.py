"""The fidelity benchmark's harness, run end to end against a scripted chat server (the
real-model run is opt-in: ``make fidelity``). A rolling summary that rounds the refund
shows up as a changed fact; every fact Scratchpad pinned is in its output verbatim."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.fidelity import models, report, server
from benchmarks.fidelity.__main__ import code_version, main
from benchmarks.fidelity.cases import ROOT, Fact, labelled_cases, long_cases
from benchmarks.fidelity.scoring import answer_correct, near_miss, status_flipped
from tests.chat_server import chat_server

LOSSY = ("The customer returns an espresso machine; a refund of about €900 was agreed and "
         "a restocking fee was offered to be waived.")
SUMMARY = {"request": "Return the item", "decisions": [], "established": [],
           "tried_and_failed": [], "open": [], "next_step": "Book the collection"}


def scripted(request: dict[str, Any]) -> str:
    """A stand-in model: the schema summary for B, a lossy prose summary for A, and
    "930" to every QA question."""
    system = str(request["messages"][0]["content"])
    if "Fill the schema" in system:
        return json.dumps(SUMMARY)
    if system.startswith("You summarize"):
        return LOSSY
    questions = str(request["messages"][-1]["content"]).split("Questions:\n", 1)[1]
    return "\n".join(f"{n}. 930" for n in range(1, len(questions.splitlines()) + 1))


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("fidelity") / "fidelity.json"
    with chat_server("reply", scripted) as (url, received):
        code = main(["--base-url", url, "--model-name", "scripted", "--limit", "2",
                     "--long", "1", "--rounds", "2", "--steps", "12", "--long-window", "1024",
                     "--mode", "JSON",
                     "--out", str(out)])
    assert code == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    document["requests"] = received
    document["path"] = str(out)
    return document


def test_every_case_is_compacted_in_both_conditions_and_probed(results) -> None:
    assert [c["id"] for c in results["cases"]][:1] == ["espresso"]
    assert results["totals"]["cases"] == 3 == len(results["cases"])
    for case in results["cases"]:
        # B compacts, or hands the messages back when the block would cost more than the
        # turns it replaces (a short thread dense with facts): never a bigger context
        assert all(r["B_log"]["compacted"] or r["B_log"]["tokens_after"] ==
                   r["B_log"]["tokens_before"] for r in case["rounds"])
        assert case["A"]["tokens"] < case["tokens_full"]
        assert case["B"]["tokens"] <= case["tokens_full"]
        assert set(case["qa"]) >= {"A", "B"}
    assert results["cases"][0]["rounds"][0]["B_log"]["compacted"]  # espresso is compacted
    assert all(r["B_log"]["compacted"] for r in results["cases"][1]["rounds"])  # long
    assert {r["model"] for r in results["requests"]} == {"scripted"}


def test_the_results_name_the_code_they_ran(results) -> None:
    version = code_version()
    assert results["code"] == version
    if (ROOT / ".git").exists():
        assert len(version["commit"]) == 40 and isinstance(version["dirty"], bool)
    else:  # an unpacked source tree: nothing to name, and no error
        assert version == {}


def test_what_scratchpad_pinned_survives_verbatim(results) -> None:
    t = results["totals"]["B"]
    assert t["pinned_facts"] > 0 and t["pinned_verbatim"] == t["pinned_facts"]
    espresso = results["cases"][0]
    assert "€930" not in espresso["B"]["missing"]
    assert "€930" in espresso["A"]["missing"]  # the lossy summary rounded it


def test_a_rounded_figure_in_the_summary_counts_as_changed(results) -> None:
    espresso = results["cases"][0]
    assert espresso["A"]["changed_to"]["€930"] == "900"
    assert "€930" not in espresso["B"]["changed_to"]
    first = espresso["rounds"][0]
    assert first["A_front"] == LOSSY and "=== Carried forward" in first["B_front"]


def test_qa_is_scored_by_exact_value_and_long_sessions_report_each_round(results) -> None:
    espresso = results["cases"][0]
    refund = [a for a in espresso["qa"]["B"]["answers"] if a["gold"] == "930"]
    assert refund and all(a["correct"] for a in refund)
    assert espresso["qa"]["B"]["correct"] == len(refund)  # "930" is wrong everywhere else
    assert [r["round"] for r in results["totals"]["long_rounds"]] == [1, 2]
    (long,) = [c for c in results["cases"] if c["source"] == "long-coding"]
    for r in long["rounds"]:  # A keeps the recent turns, not all since the last user turn
        assert r["A"]["tokens"] <= long["window"] and r["B"]["tokens"] <= long["window"]
    assert results["totals"]["long_rounds"][-1]["B"] == 1.0


def test_facts_are_verbatim_in_their_turns() -> None:
    cases = labelled_cases()
    assert len(cases) >= 21 and all(4 <= len(c.facts) <= 5 for c in cases)
    assert len(cases) + len(long_cases(4, 5, 40)) >= 20


def test_answers_match_whole_values_after_normalizing() -> None:
    fact = Fact(turn=0, text="€1,249.50", kind="amount", question="?", answer="1,249.50")
    assert answer_correct("About 1249.50 euros", fact)
    assert not answer_correct("11,249.50", fact)
    waived = Fact(turn=0, text="waived", kind="commitment", question="?", answer="waived")
    assert status_flipped("It was offered", waived) and not status_flipped("Waived.", waived)


def test_near_misses_are_values_the_conversation_never_said() -> None:
    order = Fact(turn=0, text="ORD-55120", kind="identifier")
    assert near_miss(order, "order ORD-5512 was refunded", "order ORD-55120") == "ORD-5512"
    amount = Fact(turn=0, text="€930", kind="amount")
    assert near_miss(amount, "about €900", "we agreed €930") == "900"
    assert near_miss(amount, "the €950 price", "€950 list price, we agreed €930") is None
    six = Fact(turn=0, text="weekdays before 6 p.m.", kind="constraint")
    assert near_miss(six, 'CONSTRAINT: "no calls" (user, turn 7; kept turns 5-6)',
                     "no calls on weekdays before 6 p.m.") is None  # provenance, not values


def test_a_model_is_used_only_when_its_parts_have_the_official_hash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "fakemodel_part1"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "part01.bin").write_bytes(b"GGUF" * 10)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(models, "CACHE", tmp_path / "cache")
    good = hashlib.sha256(b"GGUF" * 10).hexdigest()
    spec = models.ModelSpec("fake", "fake.gguf", good,
                            parts=(("fakemodel_part1", "data/part01.bin"),))
    assert spec.path().read_bytes() == b"GGUF" * 10
    bad = models.ModelSpec("fake", "bad.gguf", "0" * 64, parts=spec.parts)
    with pytest.raises(models.ModelUnavailable, match="not the official"):
        bad.path()
    assert not (tmp_path / "cache" / "bad.gguf").exists()
    missing = models.ModelSpec("gone", "g.gguf", good, parts=(("no_such_part_pkg", "x"),))
    with pytest.raises(models.ModelUnavailable, match="make fidelity-setup"):
        missing.path()


def test_a_server_that_exits_is_one_clear_error(tmp_path: Path) -> None:
    script = "print('bad model file'); raise SystemExit(3)"
    with (tmp_path / "log").open("wb") as log:
        process = subprocess.Popen([sys.executable, "-c", script], stdout=log,
                                   stderr=subprocess.STDOUT)
    with pytest.raises(server.ServerFailed, match="exited with 3: bad model file"):
        server._wait("http://127.0.0.1:9/v1", process, 30, tmp_path / "log")


def test_the_report_recomputes_the_totals_from_the_cases(results, capsys) -> None:
    path = Path(results["path"])
    written = json.loads(path.read_text(encoding="utf-8"))
    written["totals"] = {}
    path.write_text(json.dumps(written), encoding="utf-8")
    assert report.main([str(path), "--update"]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["totals"] == results["totals"]
    assert "| must-carry facts verbatim in the compacted context |" in capsys.readouterr().out


def test_a_rerun_retries_only_the_conversations_that_failed(tmp_path: Path) -> None:
    def failing_long(request: dict[str, Any]) -> str:
        if "coding agent" in json.dumps(request):
            raise ConnectionError("the model server went away")
        return scripted(request)

    out = tmp_path / "fidelity.json"
    args = ["--model-name", "scripted", "--limit", "1", "--long", "1", "--rounds", "1",
            "--long-window", "1024", "--mode", "JSON", "--out", str(out)]
    with chat_server("reply", failing_long) as (url, _):
        assert main(["--base-url", url, *args, "--steps", "12"]) == 0
    first = json.loads(out.read_text(encoding="utf-8"))
    assert [f["id"] for f in first["failed"]] == ["long-coding-2026"]
    assert [c["id"] for c in first["cases"]] == ["espresso"]
    cut_short = report.from_partial(tmp_path / "fidelity.partial.jsonl")
    assert cut_short["complete"] is False and cut_short["cases"] == first["cases"]
    with chat_server("reply", scripted) as (url, received):  # other long-session settings
        assert main(["--base-url", url, *args, "--steps", "14"]) == 0
    second = json.loads(out.read_text(encoding="utf-8"))
    assert [c["id"] for c in second["cases"]] == ["espresso", "long-coding-2026"]
    assert second["cases"][0] == first["cases"][0] and not second["failed"]
    assert not any("Casa Crema" in json.dumps(r) for r in received)  # espresso not redone
    assert not (tmp_path / "fidelity.partial.jsonl").exists()


def test_a_fact_is_pinned_only_by_a_record_of_its_own_turn() -> None:
    from benchmarks.fidelity.cases import Case
    from benchmarks.fidelity.run import is_pinned

    case = Case("c", "test", [{"role": "system", "content": "be brief"},
                              {"role": "tool", "content": "4e7c1d9f2a6b0c71"},
                              {"role": "assistant", "content": "Reverted 4e7c1d9."}],
                [Fact(turn=2, text="4e7c1d9", kind="identifier"),
                 Fact(turn=-1, text="PAY-1432", kind="ticket")])
    assert not is_pinned("4e7c1d9", case, [(1, "4e7c1d9f2a6b0c71")])  # the tool's hash
    assert is_pinned("4e7c1d9", case, [(2, "4e7c1d9")])  # turn 2: the system message is not one
    assert is_pinned("PAY-1432", case, [(7, "PAY-1432")])  # a planted fact: any turn


def test_the_block_keeps_every_fact_it_pinned_in_the_committed_runs_conversations() -> None:
    """B's verbatim retention of what it pinned is 100% by construction: compact every
    labelled case of the committed run under its window (the deterministic summary below
    the block; the block does not depend on the summarizer) and every fact a record of
    its turn holds is in the compacted context."""
    from benchmarks.fidelity.run import is_pinned
    from scratchpad import Scratchpad
    from scratchpad.compaction import compact

    committed = json.loads((ROOT / "benchmarks/results/fidelity.json").read_text("utf-8"))
    settings = committed["settings"]
    ids = {c["id"] for c in committed["cases"]}
    cases = [c for c in labelled_cases() if c.id in ids]
    assert len(cases) >= 18
    lost, pinned = [], 0
    for case in cases:
        with Scratchpad(":memory:") as pad:
            result = compact(case.messages, thread=case.id, window=settings["window"],
                             trigger=settings["trigger"], keep_recent=settings["keep_recent"],
                             pad=pad)
            pins = [(r.turn, r.text) for r in pad.records(case.id)]
        sent = {repr(dict(m)) for m in result.messages}
        kept = {i for i, m in enumerate(case.messages) if repr(m) in sent}
        text = "\n".join(str(m.get("content") or "") for m in result.messages)
        for fact in case.facts:
            if fact.turn not in kept and is_pinned(fact.text, case, pins):
                pinned += 1
                if fact.text not in text:
                    lost.append((case.id, fact.text))
    # the short conversations compaction hands back whole (the block would cost more
    # than the turns it replaces) lose nothing and count no fact here
    assert pinned >= 30 and lost == []
