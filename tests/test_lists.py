"""Lists under a heading line (:mod:`extractors.text.lists`)."""

from __future__ import annotations

from extractors.text.lists import headed_items


def rules(line: str) -> bool:
    return line.strip().lower() == "rules:"


def items(text: str) -> list[str]:
    return [text[s:e] for s, e in headed_items(text, rules)]


def test_items_under_an_accepted_heading() -> None:
    text = ("Hi.\nRules:\n- no new deps  \n* keep iOS 15\n  3) unit tests only\n(b) b item\n"
            "- **bold** one")
    assert items(text) == ["no new deps", "keep iOS 15", "unit tests only", "b item",
                           "**bold** one"]


def test_a_blank_line_or_a_plain_line_ends_the_list() -> None:
    assert items("Rules:\n- one\n\n- two") == ["one"]
    assert items("Rules:\n- one\nthanks\n- two") == ["one"]
    assert items("Want:\n- one\n- two") == []
    assert items("Rules:\nnot a list\n- two") == []


def test_spans_are_verbatim_offsets_and_the_cost_is_linear() -> None:
    text = "Rules:\n" + "- item\n" * 50_000
    spans = headed_items(text, rules)
    assert len(spans) == 50_000
    assert all(text[s:e] == "item" for s, e in spans)
