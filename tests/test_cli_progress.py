"""What a person at a terminal sees on stderr: progress bars (only on a terminal, never
in piped output), ``-v``/``-q`` logging, ``--version``. Each run is a real process, its
stderr a pseudo-terminal where the test needs one."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import tempfile
from pathlib import Path

from tests.dashboard_site import ROOT, SCRATCHPAD

CORPUS = ROOT / "tests" / "data" / "commitments_blind.jsonl"
ESPRESSO = ROOT / "examples" / "espresso.jsonl"


def run(args: list[str], *, terminal: bool) -> tuple[int, bytes, bytes]:
    """Exit code, stdout and stderr of ``scratchpad ARGS``; stderr is a pseudo-terminal
    when ``terminal``, else a pipe (stdout is always a pipe)."""
    if not terminal:
        done = subprocess.run([str(SCRATCHPAD), *args], capture_output=True, timeout=300)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    with tempfile.TemporaryFile() as stdout:
        # stdout to a file, not a pipe: a full pipe would block the process while the
        # test reads the terminal
        with subprocess.Popen([str(SCRATCHPAD), *args], stdout=stdout,
                              stderr=follower) as proc:
            os.close(follower)
            seen = bytearray()
            while True:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the process closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            code = proc.wait(timeout=300)
        os.close(leader)
        stdout.seek(0)
        return code, stdout.read(), bytes(seen)


def long_conversation(tmp_path: Path, espresso_messages: list[dict], copies: int = 6) -> Path:
    """The espresso conversation's turns ``copies`` times over: 246 turns."""
    turns = [m for m in espresso_messages if m["role"] != "system"] * copies
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in turns), encoding="utf-8")
    return path


def test_extract_draws_a_bar_on_a_terminal_and_nothing_when_piped() -> None:
    args = ["extract", str(CORPUS), "--limit", "12", "--json"]
    code, out_tty, err_tty = run(args, terminal=True)
    assert code == 0
    assert b"extracting" in err_tty and b"12/12" in err_tty
    code, out_piped, err_piped = run(args, terminal=False)
    assert code == 0 and err_piped == b""
    assert out_tty == out_piped  # the bar never reaches stdout
    assert len(out_piped.splitlines()) == 12


def test_eval_draws_a_bar_and_quiet_draws_none() -> None:
    _, out, err = run(["eval", str(CORPUS), "--limit", "5"], terminal=True)
    assert b"scoring" in err and b"5/5" in err and out
    _, _, quiet = run(["-q", "eval", str(CORPUS), "--limit", "5"], terminal=True)
    assert quiet == b""


def test_long_ingest_draws_a_bar_a_short_one_none(tmp_path: Path,
                                                  espresso_messages: list[dict]) -> None:
    db = tmp_path / "pad.db"
    _, out, err = run(["ingest", str(long_conversation(tmp_path, espresso_messages)),
                       "--thread", "long",
                       "--db", str(db)], terminal=True)
    assert out.startswith(b"thread long: turns 1-246 ingested")
    assert b"ingesting" in err and b"246/246" in err
    _, out, err = run(["ingest", str(ESPRESSO), "--thread", "short", "--db", str(db)],
                      terminal=True)
    assert out.startswith(b"thread short: turns 1-41 ingested") and err == b""


def test_verbose_logs_what_happens_and_works_after_the_command_too(tmp_path: Path) -> None:
    db = str(tmp_path / "pad.db")
    for args in (["-v", "ingest", str(ESPRESSO), "--thread", "e", "--db", db],
                 ["ingest", str(ESPRESSO), "--thread", "f", "--db", db, "-v"]):
        code, _, err = run(args, terminal=False)
        assert code == 0
        lines = err.decode().splitlines()
        assert any(line.startswith("INFO extractors.text.nlp: spaCy pipeline ") for line in lines)
        assert any(line.startswith("INFO scratchpad.pipeline: thread ") and "41 new turns" in line
                   for line in lines)


def test_version() -> None:
    code, out, _ = run(["--version"], terminal=False)
    assert code == 0 and out.decode().startswith("scratchpad, version ")


def test_compacting_a_long_file_draws_the_ingest_bar(tmp_path: Path,
                                                     espresso_messages: list[dict]) -> None:
    args = ["compact", str(long_conversation(tmp_path, espresso_messages)), "--window", "4000",
            "--db", str(tmp_path / "pad.db"), "--thread", "long"]
    _, out, err = run(args, terminal=True)
    assert b"ingesting" in err and b"246/246" in err
    assert out.startswith(b"{")
