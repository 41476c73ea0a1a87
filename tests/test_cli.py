"""The command line: help for every command, one-line errors, nothing half-written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from scratchpad import Scratchpad
from scratchpad.cli import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def counts(db: Path) -> dict[str, int]:
    if not db.exists():
        return {}
    con = sqlite3.connect(db)
    try:
        return {t: con.execute(f"select count(*) from {t}").fetchone()[0]
                for t in ("threads", "turns", "records", "events")}
    finally:
        con.close()


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_command_has_help_with_an_example_and_is_in_the_readme(runner, command):
    result = runner.invoke(cli, [command, "-h"])
    assert result.exit_code == 0
    assert "Example:" in result.output
    assert f"scratchpad {command}" in (ROOT / "README.md").read_text()


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


GOOD = b'{"role": "user", "content": "Order A-77215, please refund \\u20ac930."}\n'
BAD_INPUTS = {
    "malformed": (b'{"role": "user", "content": "hi"}\n{"role": "user", "content": \n',
                  "bad.jsonl:2: invalid JSON"),
    "unknown_role": (b'{"role": "bot", "content": "hi"}\n', "unknown role 'bot'"),
    "missing_content": (b'{"role": "user"}\n', "has no 'content'"),
    "null_content": (b'{"role": "assistant", "content": null}\n', "null content and no tool_calls"),
    "bad_parts": (b'{"role": "user", "content": [{"x": 1}]}\n', "content part 0"),
    "empty": (b"", "no messages"),
    "invalid_utf8": (b'{"role": "user", "content": "caf\xe9"}\n', "invalid UTF-8"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_and_leaves_db_unchanged(runner, tmp_path, case):
    db = tmp_path / "s.db"
    ok = runner.invoke(cli, ["ingest", str(write(tmp_path, "ok.jsonl", GOOD)), "--db", str(db),
                             "--thread", "t"])
    assert ok.exit_code == 0, ok.output
    before = counts(db)
    data, fragment = BAD_INPUTS[case]
    path = write(tmp_path, "bad.jsonl", data)
    for thread in ("t", "u"):
        result = runner.invoke(cli, ["ingest", str(path), "--db", str(db), "--thread", thread])
        assert result.exit_code == 1
        assert fragment in result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert counts(db) == before


def test_missing_file(runner, tmp_path):
    result = runner.invoke(cli, ["ingest", str(tmp_path / "nope.jsonl"), "--db",
                                 str(tmp_path / "s.db"), "--thread", "t"])
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_content_parts_and_tool_calls_ingest(runner, tmp_path):
    lines = [
        {"role": "user", "content": [{"type": "text", "text": "Refund order A-77215"},
                                     {"type": "text", "text": "for €930."}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"order_id": "A-77215"}'},
    ]
    path = write(tmp_path, "c.jsonl", "\n".join(json.dumps(x) for x in lines).encode())
    db = tmp_path / "s.db"
    result = runner.invoke(cli, ["ingest", str(path), "--db", str(db), "--thread", "t"])
    assert result.exit_code == 0
    out = runner.invoke(cli, ["records", "--db", str(db), "--thread", "t", "--json"])
    recs = [json.loads(line) for line in out.output.splitlines()]
    content = "Refund order A-77215\nfor €930."
    assert any(r["text"] == "€930" and content[r["start"]:r["end"]] == "€930" for r in recs)


def test_one_megabyte_turn(runner, tmp_path):
    text = ("Please refund €12.50 for order A-77215 by Friday. " * 21000)[:1_000_000]
    path = write(tmp_path, "big.jsonl", json.dumps({"role": "user", "content": text}).encode())
    db = tmp_path / "s.db"
    result = runner.invoke(cli, ["ingest", str(path), "--db", str(db), "--thread", "big"])
    assert result.exit_code == 0, result.output
    out = runner.invoke(cli, ["records", "--db", str(db), "--thread", "big", "--json"])
    recs = [json.loads(line) for line in out.output.splitlines()]
    assert recs and all(text[r["start"]:r["end"]] == r["text"] for r in recs)


def test_unknown_thread_and_missing_db(runner, tmp_path):
    result = runner.invoke(cli, ["render", "--db", str(tmp_path / "none.db"), "--thread", "x"])
    assert result.exit_code == 1 and "No database" in result.stderr
    db = tmp_path / "s.db"
    runner.invoke(cli, ["ingest", str(write(tmp_path, "ok.jsonl", GOOD)), "--db", str(db),
                        "--thread", "t"])
    result = runner.invoke(cli, ["render", "--db", str(db), "--thread", "x"])
    assert result.exit_code == 1 and "No thread 'x'" in result.stderr and "t" in result.stderr


def test_unknown_extractor_lists_the_valid_ones(runner, tmp_path):
    result = runner.invoke(cli, ["ingest", str(write(tmp_path, "ok.jsonl", GOOD)), "--db",
                                 str(tmp_path / "s.db"), "--thread", "t",
                                 "--extractors", "amount.regex.v1"])
    assert result.exit_code == 1
    assert ("Unknown extractor 'amount.regex.v1'. Available: acts.textcat.v1, "
            "amounts.regex.v1") in result.stderr


def test_extractors_lists_registered(runner):
    result = runner.invoke(cli, ["extractors"])
    assert result.exit_code == 0
    assert "amounts.regex.v1" in result.output and "questions.answers.v1" in result.output


def test_demo_flow_on_espresso(runner, tmp_path, espresso_path):
    db = str(tmp_path / "s.db")
    assert runner.invoke(cli, ["ingest", str(espresso_path), "--db", db, "--thread", "e"]
                         ).exit_code == 0
    again = runner.invoke(cli, ["ingest", str(espresso_path), "--db", db, "--thread", "e"])
    assert "nothing new" in again.output
    block = runner.invoke(cli, ["render", "--db", db, "--thread", "e"]).output
    assert block.startswith("=== Carried forward verbatim")
    opened = runner.invoke(cli, ["open", "--db", db, "--thread", "e", "--json"])
    items = [json.loads(line) for line in opened.output.splitlines()]
    assert [(i["turn"], i["status"]) for i in items] == [(14, "deferred")]
    assert items[0]["age_turns"] == 27


def test_open_gives_age_in_turns_and_time_and_sorts_oldest_first(runner, tmp_path):
    lines = [
        {"role": "user", "content": "How much was the delivery charge?",
         "timestamp": "2026-11-20T10:00:00Z"},
        {"role": "assistant", "content": "Let me check, one sec.",
         "timestamp": "2026-11-20T10:01:00Z"},
        {"role": "user", "content": "Also, which courier is it?",
         "timestamp": "2026-11-20T12:05:00Z"},
    ]
    conv = write(tmp_path, "c.jsonl", "\n".join(json.dumps(x) for x in lines).encode())
    db = str(tmp_path / "s.db")
    assert runner.invoke(cli, ["ingest", str(conv), "--db", db, "--thread", "t"]).exit_code == 0
    out = runner.invoke(cli, ["open", "--db", db, "--sort", "age"]).output.splitlines()
    assert out[0].startswith("t  turn 1  deferred age 2 turns, 2h 5m  ")
    assert out[1].startswith("t  turn 3  open     age 0 turns, 0s  ")
    items = [json.loads(x) for x in runner.invoke(
        cli, ["open", "--db", db, "--json"]).output.splitlines()]
    assert [(i["turn"], i["age_turns"], i["age_seconds"]) for i in items] == \
        [(1, 2, 7500.0), (3, 0, 0.0)]


def test_patterns_file_adds_identifiers_and_bad_file_is_one_line(runner, tmp_path):
    good = tmp_path / "p.toml"
    good.write_text("[[pattern]]\nname = \"employee_id\"\nregex = '\\bEMP\\.\\d{6}\\b'\n"
                    "subtype = \"employee\"\nscore = 0.9\n")
    conv = write(tmp_path, "c.jsonl", b'{"role": "user", "content": "My badge is EMP.123456."}\n')
    db = str(tmp_path / "s.db")
    result = runner.invoke(cli, ["ingest", str(conv), "--db", db, "--thread", "t",
                                 "--patterns", str(good)])
    assert result.exit_code == 0, result.output
    out = runner.invoke(cli, ["records", "--db", db, "--thread", "t", "--json"]).output
    recs = [json.loads(line) for line in out.splitlines()]
    assert [(r["text"], r["subtype"]) for r in recs] == [("EMP.123456", "employee")]
    bad = tmp_path / "bad.toml"
    bad.write_text("[[pattern]]\nname = \"room\"\nregex = '(unclosed'\nsubtype = \"room\"\n")
    result = runner.invoke(cli, ["ingest", str(conv), "--db", db, "--thread", "u",
                                 "--patterns", str(bad)])
    assert result.exit_code == 1 and "pattern 'room'" in result.stderr
    assert result.stderr.count("\n") == 1
    missing = runner.invoke(cli, ["records", "--db", db, "--thread", "u"])
    assert missing.exit_code == 1 and "No thread 'u'" in missing.stderr  # nothing written


def test_eval_scores_saved_extract_output(runner, tmp_path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({
        "id": "c1", "messages": [{"role": "user", "content": "Refund $20 please"}],
        "gold": {"values": [{"turn": 0, "start": 7, "end": 10, "text": "$20",
                             "kind": "amount"}], "questions": []}}) + "\n")
    extracted = runner.invoke(cli, ["extract", str(corpus), "--json"])
    saved = write(tmp_path, "r.jsonl", extracted.output.encode())
    result = runner.invoke(cli, ["eval", str(corpus), "--records", str(saved), "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["recall_amount"] == 1.0
    bad = write(tmp_path, "bad.jsonl", b'{"records": []}\n')
    result = runner.invoke(cli, ["eval", str(corpus), "--records", str(bad)])
    assert result.exit_code == 1 and "bad.jsonl:1: a records line needs 'id'" in result.stderr


def test_date_order_resolves_numeric_dates_on_ingest_and_extract(runner, tmp_path):
    conversation = write(tmp_path, "c.jsonl",
                         b'{"role": "user", "content": "I paid on 03/12/2026."}\n')
    db = tmp_path / "s.db"
    isos = {}
    for order in ("dmy", "mdy"):
        result = runner.invoke(cli, ["ingest", str(conversation), "--db", str(db), "--thread",
                                     order, "--date-order", order,
                                     "--extractors", "datetimes.regex.v1"])
        assert result.exit_code == 0, result.output
        shown = runner.invoke(cli, ["records", "--thread", order, "--db", str(db), "--json"])
        isos[order] = [json.loads(line)["value"] for line in shown.output.splitlines()]
    assert isos == {"dmy": [{"iso": "2026-12-03"}], "mdy": [{"iso": "2026-03-12"}]}
    corpus = write(tmp_path, "corpus.jsonl", json.dumps(
        {"id": "c1", "messages": [{"role": "user", "content": "I paid on 03/12/2026."}]}).encode())
    extracted = runner.invoke(cli, ["extract", str(corpus), "--json", "--date-order", "mdy",
                                    "--extractors", "datetimes.regex.v1"])
    assert extracted.exit_code == 0, extracted.output
    assert json.loads(extracted.output)["records"][0]["value"] == {"iso": "2026-03-12"}


def test_unknown_date_order_is_refused(runner, tmp_path):
    conversation = write(tmp_path, "c.jsonl", GOOD)
    result = runner.invoke(cli, ["ingest", str(conversation), "--db", str(tmp_path / "s.db"),
                                 "--thread", "t", "--date-order", "ymd"])
    assert result.exit_code == 2
    assert "'ymd' is not one of 'dmy', 'mdy'" in result.output
    assert not (tmp_path / "s.db").exists()


def test_compact_prints_messages_on_stdout_and_one_log_line_on_stderr(runner, espresso_path):
    result = runner.invoke(cli, ["compact", str(espresso_path), "--window", "2000",
                                 "--keep-recent", "6"])
    assert result.exit_code == 0, result.output
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert messages[1]["content"].startswith("=== Carried forward verbatim")
    assert messages[-1]["role"] == "assistant" and len(messages) == 8
    (log_line,) = result.stderr.splitlines()
    log = json.loads(log_line)
    assert log["compacted"] and log["tokens_after"] <= 2000 < log["tokens_before"] * 2
    assert log["summarizer_calls"] == 1 and log["dropped_turns"][0] == 1
    bad = runner.invoke(cli, ["compact", str(espresso_path), "--window", "0"])
    assert bad.exit_code == 2


def test_render_explain_and_compact_block_tokens(runner, tmp_path, espresso_path):
    db = str(tmp_path / "s.db")
    runner.invoke(cli, ["ingest", str(espresso_path), "--db", db, "--thread", "e"])
    explained = runner.invoke(cli, ["render", "--db", db, "--thread", "e", "--explain"])
    assert explained.exit_code == 0
    lines = explained.output.splitlines()
    assert lines[2].startswith("    ^ salience ") and "stated by the user" in lines[2]
    records = runner.invoke(cli, ["records", "--db", db, "--thread", "e", "--json"])
    assert all(isinstance(json.loads(line)["salience"], float)
               for line in records.output.splitlines())
    result = runner.invoke(cli, ["compact", str(espresso_path), "--window", "2000",
                                 "--block-tokens", "120"])
    assert result.exit_code == 0, result.output
    log = json.loads(result.stderr.splitlines()[-1])
    assert log["block_budget"] == 120 and log["block_tokens"] <= 120
    block = json.loads(result.stdout.splitlines()[1])["content"]
    assert "less salient lines left out to fit 120 tokens" in block
    bad = runner.invoke(cli, ["compact", str(espresso_path), "--window", "2000",
                              "--block-tokens", "0"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


@pytest.mark.parametrize("argv", [["--help"], ["open", "--db", "{db}"]])
def test_help_and_open_load_neither_spacy_nor_the_extractors(argv, tmp_path) -> None:
    """What keeps ``--help`` and ``open`` fast (benchmarks/bench_startup.py times them):
    they never import spaCy, the extractor registry, the value patterns or sqlite-utils
    (the store reads, and checks a migrated file, through the plain connection)."""
    import subprocess
    import sys

    db = tmp_path / "t.db"
    with Scratchpad(str(db)) as pad:
        pad.ingest("t", [{"role": "user", "content": "Is order A-77215 refunded yet?"}])
    args = [a.replace("{db}", str(db)) for a in argv]
    probe = ("import sys\nfrom scratchpad.cli import cli\n"
             f"try:\n    cli.main({args!r}, prog_name='scratchpad')\n"
             "except SystemExit:\n    pass\n"
             "heavy = ('spacy', 'extractors.registry', 'extractors.dialogue.commitments',\n"
             "         'extractors.values.amounts', 'sqlite_utils')\n"
             "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
    if argv[0] == "open":
        assert "A-77215" in out


def test_help_builds_no_pydantic_model_and_opens_no_store() -> None:
    """``--help`` needs click and the commands' text only: the records, messages and
    schemas (pydantic models) and the store are imported by the commands that use them."""
    import subprocess
    import sys

    probe = ("import sys\nfrom scratchpad.cli import cli\n"
             "try:\n    cli.main(['--help'], prog_name='scratchpad')\n"
             "except SystemExit:\n    pass\n"
             "heavy = ('pydantic', 'sqlite_utils', 'scratchpad.records', 'schemas.base')\n"
             "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert "Commands:" in out
    assert out.strip().splitlines()[-1] == "[]"
