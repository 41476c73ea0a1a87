"""The README's Python examples run, and its demo output is the real output."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from scratchpad.cli import cli
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)
#: What a block says it prints: a ```text block right after it, introduced by "prints".
_FENCED = r"((?:(?!```).)*)```"  # a fenced block's body, up to its own fence
PRINTS = dict(re.findall(rf"```python\n{_FENCED}\n\nprints\n\n```text\n{_FENCED}", README,
                         flags=re.S))


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_python_blocks_run(index, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    # dont_inherit: the block runs as a user's script would, without this module's
    # ``from __future__ import annotations``
    block = PYTHON_BLOCKS[index]
    exec(compile(block, f"README.md block {index}", "exec", dont_inherit=True),
         {"__name__": "__main__"})
    if block in PRINTS:
        assert capsys.readouterr().out == PRINTS[block]


def test_the_blocks_that_say_what_they_print_are_found() -> None:
    assert len(PRINTS) >= 2 and all(block in PYTHON_BLOCKS for block in PRINTS)


def test_demo_output_in_readme_is_current(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "demo.db")
    runner = CliRunner()
    out = []
    for args in (["ingest", "examples/espresso.jsonl", "--thread", "espresso"],
                 ["render", "--thread", "espresso"], ["open", "--thread", "espresso"]):
        result = runner.invoke(cli, [*args, "--db", db])
        assert result.exit_code == 0, result.output
        out.append(result.output)
    demo = "".join(out)
    assert demo.strip() in README, "README demo output is stale: paste the output of make demo"


def test_docs_python_blocks_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "patterns.md").read_text(encoding="utf-8")
    for toml in re.findall(r"```toml\n# (\S+)\n(.*?)```", text, flags=re.S):
        (tmp_path / toml[0]).write_text(toml[1], encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for i, block in enumerate(blocks):  # each example builds its own registry
        exec(compile(block, f"docs/patterns.md block {i}", "exec", dont_inherit=True),
             {"__name__": "__main__"})
