"""Domain schemas filled from pins: the shipped refund on the example, a custom schema
end to end (Python and CLI), and the required fields still missing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from schemas import SHIPPED, DomainState, Pinned, Refund, pin
from scratchpad import Scratchpad
from scratchpad.cli import cli


class Parcel(DomainState):
    """A custom schema, as the README shows it: a few lines."""

    schema_name = "parcel"
    tracking: Pinned | None = pin("identifier", label=("tracking", "parcel"), required=True)
    delivery_fee: Pinned | None = pin("amount", subtype="money", label="delivery")
    promises: list[Pinned] = pin("commitment", subtype=("promised", "granted"), pick="all")
    open_questions: list[Pinned] = pin("question", status=("open", "deferred"), pick="all")


PARCEL = [
    {"role": "user", "content": "My parcel hasn't arrived. Tracking number 1Z999AA10123456784."},
    {"role": "assistant", "content": "I'll refund the €4.99 delivery fee today. "
                                     "Did anyone sign for it?"},
]


def test_espresso_refund_state(espresso_pad) -> None:
    state = espresso_pad.state("espresso", Refund)
    assert state.missing == []
    refund = state.refund_amount
    assert refund.text == "The refund would be €930" and refund.subtype == "agreed"
    assert refund.value == {"amount": "930", "currency": "EUR"} and refund.turns == [12, 13]
    assert [f.text for f in state.fees_waived] == [
        "I've waived the €75 restocking fee for this return"]
    assert state.fees_waived[0].turns == [14]
    assert state.shipping_covered.text == "we'll cover return shipping as well"
    (question,) = state.outstanding_questions
    assert "€18 delivery charge" in question.text and question.status == "deferred"
    assert question.turns == [14, 15]
    assert state.collection_booking.text == "COL-66104"
    assert state.order_id.text == "A-77215" and state.order_id.turns[0] == 1
    assert espresso_pad.state("espresso", "refund") == state  # by its shipped name


def test_each_filled_field_says_why(espresso_pad) -> None:
    state = espresso_pad.state("espresso", Refund)
    order = state.order_id
    assert order.why.startswith("identifier, subtype order/reference, label 'order'")
    assert f"quoted from {order.records[0]} by identifiers.regex.v1" in order.why
    assert "rule entitlement_would_be" in state.refund_amount.why
    assert "every distinct matching value" in state.fees_waived[0].why
    shown = json.loads(state.model_dump_json())
    assert shown["order_id"]["why"] == order.why  # state --json carries it


class Visit(DomainState):
    schema_name = "visit"
    follow_up: Pinned | None = pin("commitment", subtype="promised", prefer=r"\d\s*pm")


def test_prefer_picks_the_matching_records_first() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("v", [
            {"role": "user", "content": "The boiler is leaking."},
            {"role": "assistant", "content": "I'll call you at 3pm with a slot."},
            {"role": "user", "content": "Thanks."},
            {"role": "assistant", "content": "I'll send you the engineer's name as well."}])
        state = pad.state("v", Visit)
    assert state.follow_up.text == "I'll call you at 3pm with a slot"
    assert "1 of 2 records match the preferred pattern" in state.follow_up.why
    with pytest.raises(ValueError, match="pin prefer"):
        pin("commitment", prefer="(")


def test_ticket_follow_up_and_sla_read_the_stated_target() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("k", [
            {"role": "user", "content": "Nobody can log into Planwise Enterprise today."},
            {"role": "assistant", "content": "I've raised INC-5530 to P1, which carries a "
             "4-hour resolution target. I'll email you an update by 11:30."},
            {"role": "user", "content": "OK."},
            {"role": "assistant", "content": "If the update comes out sooner, you'll see it "
             "in the portal. I'll send you the report."}])
        state = pad.state("k", "ticket")
    assert state.product.text == "Planwise Enterprise"
    assert state.sla_deadline.text == "4-hour resolution target"
    assert state.promised_follow_up.text == "I'll email you an update by 11:30"


def test_required_fields_not_filled_are_listed() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [{"role": "user", "content": "I'd like to return my kettle."}])
        state = pad.state("t", Refund)
    assert state.refund_amount is None and state.fees_waived == []
    assert state.missing == ["order id: not given", "refund amount: not yet agreed"]


def test_a_custom_schema_end_to_end(tmp_path) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.ingest("p", PARCEL)
        state = pad.state("p", Parcel)
    assert state.tracking.text == "1Z999AA10123456784"
    assert state.delivery_fee.value == {"amount": "4.99", "currency": "EUR"}
    assert [p.text for p in state.promises] == ["I'll refund the €4.99 delivery fee today"]
    assert [q.text for q in state.open_questions] == ["Did anyone sign for it?"]
    runner = CliRunner()
    out = runner.invoke(cli, ["state", "--schema", "tests.test_schemas:Parcel", "--thread",
                              "p", "--db", str(db), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["tracking"]["text"] == "1Z999AA10123456784"
    text = runner.invoke(cli, ["state", "--schema", "tests.test_schemas:Parcel", "--thread",
                               "p", "--db", str(db)]).stdout
    assert 'tracking: "1Z999AA10123456784" (' in text


def test_unknown_schemas_are_one_line_errors(tmp_path) -> None:
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.ingest("p", PARCEL)
    runner = CliRunner()
    for name, said in (("nope", "Unknown schema 'nope'. Available: coding, refund, ticket"),
                       ("tests.test_schemas:PARCEL", "is not a DomainState subclass"),
                       ("no.such.module:X", "Cannot load schema")):
        out = runner.invoke(cli, ["state", "--schema", name, "--thread", "p", "--db", str(db)])
        assert out.exit_code == 1 and said in out.stderr and out.stderr.count("\n") == 1


def test_pin_refuses_unknown_kinds_and_subtypes() -> None:
    with pytest.raises(ValueError, match="pin subtype 'agred' is not a subtype of commitment"):
        pin("commitment", subtype="agred")
    with pytest.raises(ValueError, match="pin kind 'comitment' is not one of"):
        pin("comitment")
    pin("identifier", subtype="employee")  # identifier subtypes come from patterns: open
    pin(("amount", "datetime"), subtype=("money", "deadline"))


def test_the_shipped_names_known_without_importing_are_the_shipped_schemas() -> None:
    import schemas

    assert tuple(schemas.SHIPPED) == schemas.SHIPPED_NAMES
    assert schemas.SHIPPED["refund"] is Refund


def test_a_file_touched_is_named_by_its_project_path() -> None:
    """Not by its bare name ("totals.py"), and not by the machine's absolute path a tool
    printed: the path as the project names it."""
    def call(n: int, name: str, args: dict) -> dict:
        return {"role": "assistant", "content": "", "tool_calls": [
            {"id": f"c{n}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}]}

    messages = [
        {"role": "user", "content": "Please fix the rounding in billing/totals.py."},
        call(1, "apply_patch", {"patch": "..."}),
        {"role": "tool", "tool_call_id": "c1",
         "content": "--- a/billing/totals.py\n+++ b/billing/totals.py\n@@ -1 +1 @@\n-x\n+y\n"},
        call(2, "write_file", {"path": "/home/dev/shop/tests/unit/test_totals.py"}),
        {"role": "tool", "tool_call_id": "c2",
         "content": "Wrote /home/dev/shop/tests/unit/test_totals.py"},
        {"role": "assistant", "content": "I edited totals.py and added tests/unit/test_totals.py."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        state = pad.state("t", SHIPPED["coding"])
    assert [f.text for f in state.files_touched] == ["billing/totals.py",
                                                     "tests/unit/test_totals.py"]


def test_of_the_orders_a_lookup_listed_the_order_is_the_one_acted_on() -> None:
    """Nobody named either order; the return was created for the first one listed."""
    def call(n: int, name: str, args: dict) -> dict:
        return {"role": "assistant", "content": "", "tool_calls": [
            {"id": f"c{n}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}]}

    orders = {"orders": [{"order_id": "WX-7781-3340", "status": "delivered"},
                         {"order_id": "WX-7702-1187", "status": "delivered"}]}
    messages = [
        {"role": "user", "content": "I want to return the jeans from my last order."},
        call(1, "find_orders", {"email": "mara@example.com"}),
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(orders)},
        call(2, "create_return", {"order_id": "WX-7781-3340"}),
        {"role": "tool", "tool_call_id": "c2", "content": '{"return_id": "R-4471902"}'},
        {"role": "assistant", "content": "Your return number is R-4471902."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        state = pad.state("t", SHIPPED["refund"])
    assert state.order_id is not None and state.order_id.text == "WX-7781-3340"
