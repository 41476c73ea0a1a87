"""Schemas attached to a thread: kept in a table per schema, current on every ingest;
their missing required fields are open items; their fields head the block."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from schemas import Refund
from schemas.registry import UnknownSchemaError, UntrustedSchemaError
from scratchpad import Scratchpad
from scratchpad.cli import cli
from scratchpad.errors import ScratchpadError
from scratchpad.store import StoredTurn
from scratchpad.store.sqlite import SQLiteStore as Store
from tests.conftest import GOLDEN, check_golden


def _row(db, table: str, thread: str) -> dict:
    store = Store(db)
    try:
        rows = list(store.db.query(f"select * from [{table}] where thread = ?", [thread]))
    finally:
        store.close()
    assert len(rows) == 1
    return rows[0]


def test_the_state_table_follows_each_ingest(tmp_path, espresso_messages) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.attach("e", "refund")
        pad.ingest("e", espresso_messages[:10])  # before the refund is agreed
        early = _row(db, "state_refund", "e")
        pad.ingest("e", espresso_messages)
        late = _row(db, "state_refund", "e")
        assert late["state"] == json.dumps(pad.state("e", Refund).model_dump(mode="json"),
                                           ensure_ascii=False)
    assert early["refund_amount"] is None and early["last_turn"] == 9
    assert "refund amount: not yet agreed" in json.loads(early["missing"])
    assert late["last_turn"] == 41 and json.loads(late["missing"]) == []
    assert late["refund_amount"] == "The refund would be €930"
    assert json.loads(late["refund_amount_turns"]) == [12, 13]
    assert late["collection_booking"] == "COL-66104"
    assert json.loads(late["fees_waived"]) == [
        "I've waived the €75 restocking fee for this return"]


def test_attaching_to_a_stored_thread_fills_the_table_at_once(tmp_path,
                                                              espresso_messages) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.ingest("e", espresso_messages)
        pad.attach("e", Refund)
        pad.attach("e", Refund)  # attaching twice keeps one attachment
        assert pad.attached("e") == [Refund]
    assert _row(db, "state_refund", "e")["order_id"] == "A-77215"


def test_missing_required_fields_are_open_items(tmp_path) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.ingest("k", [{"role": "user", "content": "I'd like to return my kettle, "
                                                     "order A-10233. Is that possible?"}],)
        pad.attach("k", "refund")
        items = pad.open_items("k")
        other = Scratchpad(":memory:")
        other.ingest("plain", [{"role": "user", "content": "Is that possible?"}])
        assert [i.kind for i in other.open_items("plain")] == ["question"]  # none attached
        other.close()
    assert [(i.kind, i.text) for i in items] == [
        ("question", "Is that possible?"), ("missing", "refund amount: not yet agreed")]
    assert items[1].schema_name == "refund" and items[1].field == "refund amount"
    out = CliRunner().invoke(cli, ["open", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert "k  refund  missing  refund amount: not yet agreed" in out.stdout
    lines = CliRunner().invoke(cli, ["open", "--db", str(db), "--json"]).stdout.splitlines()
    assert json.loads(lines[-1]) == {"kind": "missing", "thread": "k", "schema_name": "refund",
                                     "field": "refund amount",
                                     "text": "refund amount: not yet agreed",
                                     "status": "open", "age_turns": 1}


def test_schema_fields_head_the_block(tmp_path, espresso_messages, update_golden) -> None:
    with Scratchpad(tmp_path / "s.db") as pad:
        pad.ingest("e", espresso_messages)
        plain = pad.render("e")
        pad.attach("e", "refund")
        block = pad.render("e")
        capped = pad.render("e", max_tokens=250)
    check_golden(GOLDEN / "espresso.refund.block.txt", block, update_golden)
    head = block.splitlines()[1:10]
    assert all(line.startswith("REFUND ") for line in head[:8])
    assert 'REFUND refund amount: "The refund would be €930" (agreed; turn 12; also turn 13)' \
        in head
    # below the schema's lines, what they already quote is not repeated; the rest stays
    rest = block.splitlines()[9:-1]
    assert not [ln for ln in rest if "A-77215" in ln or "The refund would be €930" in ln
                or "we'll cover return shipping" in ln]
    assert set(rest) - set(plain.splitlines()) == {
        ln for ln in rest if ln.startswith(("AGREED", "WHEN", "NOT CARRIED"))}
    assert 'CONSTRAINT: "I\'m not paying a restocking fee on top of that"' in block
    assert capped.splitlines()[1].startswith("REFUND order id")  # schema lines go last


def test_the_cli_attaches_on_ingest_and_by_command(tmp_path, espresso_path) -> None:
    db = str(tmp_path / "s.db")
    runner = CliRunner()
    out = runner.invoke(cli, ["ingest", str(espresso_path), "--thread", "e", "--db", db,
                              "--schema", "refund", "--schema", "ticket"])
    assert out.exit_code == 0, out.output
    assert _row(db, "state_refund", "e")["refund_amount"] == "The refund would be €930"
    assert _row(db, "state_ticket", "e")["thread"] == "e"
    out = runner.invoke(cli, ["attach", "--schema", "tests.test_schemas:Parcel",
                              "--thread", "e", "--db", db])
    assert out.exit_code == 0 and "table state_parcel" in out.stdout
    assert _row(db, "state_parcel", "e")["thread"] == "e"
    out = runner.invoke(cli, ["attach", "--schema", "refund", "--thread", "e", "--db", db])
    assert out.exit_code == 0 and "table state_refund" in out.stdout  # re-attached: its own
    out = runner.invoke(cli, ["attach", "--schema", "nope", "--thread", "e", "--db", db])
    assert out.exit_code == 1 and out.stderr.startswith("Error: Unknown schema 'nope'")
    assert out.stderr.count("\n") == 1


def test_a_thread_rebuilt_or_dropped_loses_its_state_rows(tmp_path, espresso_messages) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.attach("e", "refund")
        pad.ingest("e", espresso_messages)
        pad.store.delete_thread("e")
        assert pad.store.attached_schemas("e") == []
        assert list(pad.store.db.query("select * from state_refund")) == []


def test_an_attached_schema_that_no_longer_loads_fails_before_any_write(tmp_path) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db, schemas=["tests.test_schemas:Parcel"]) as pad:
        pad.store.attach_schema("t", "tests.test_schemas:Parcel", "state_parcel")
        pad.store.attach_schema("t", "no_such_module:Gone", "state_gone")
        with pytest.raises(ScratchpadError, match="'no_such_module:Gone' attached"):
            pad.ingest("t", [{"role": "user", "content": "Order A-1."}])
        assert pad.store.turn_count("t") == 0


def test_a_schema_name_read_from_the_database_is_never_imported(tmp_path, monkeypatch) -> None:
    """A database file does not decide what code runs: a stored module:Class that this
    process was not given is an error naming it, and its module is not imported."""
    (tmp_path / "planted_schema.py").write_text(
        "import builtins\nbuiltins.PLANTED_RAN = True\n"
        "from schemas import DomainState\nclass Planted(DomainState):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.store.attach_schema("t", "planted_schema:Planted", "state_planted")
    for call in ("ingest", "render"):
        with Scratchpad(db) as pad:
            with pytest.raises(UntrustedSchemaError, match="'planted_schema:Planted'"):
                if call == "ingest":
                    pad.ingest("t", [{"role": "user", "content": "Order A-1."}])
                else:
                    pad.store.add_turn(StoredTurn("t", 1, "user", "x", "h", 1, {}), [], [], [])
                    pad.render("t")
    assert "planted_schema" not in sys.modules
    assert not hasattr(__import__("builtins"), "PLANTED_RAN")
    # given by the operator, it loads: in Python ...
    with Scratchpad(db, schemas=["planted_schema:Planted"]) as pad:
        assert [c.__name__ for c in pad.attached("t")] == ["Planted"]
    # ... and on the command line
    runner = CliRunner()
    out = runner.invoke(cli, ["render", "--thread", "t", "--db", str(db)])
    assert out.exit_code == 1 and "'planted_schema:Planted'" in out.stderr
    assert out.stderr.count("\n") == 1
    out = runner.invoke(cli, ["render", "--thread", "t", "--db", str(db),
                              "--schema", "planted_schema:Planted"])
    assert out.exit_code == 0, out.output


def test_a_given_module_class_must_be_a_domain_state(tmp_path) -> None:
    with pytest.raises(UnknownSchemaError, match="'tests.test_schemas:pin' is not a DomainState"):
        Scratchpad(tmp_path / "s.db", schemas=["tests.test_schemas:pin"])
    runner = CliRunner()
    out = runner.invoke(cli, ["attach", "--schema", "pathlib:Path", "--thread", "t", "--db",
                              str(tmp_path / "s.db")])
    assert out.exit_code == 1 and "'pathlib:Path' is not a DomainState subclass" in out.stderr
