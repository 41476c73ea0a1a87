"""An ingest annotates its new turns a batch at a time and reports progress per stored
turn; neither changes a record."""

from __future__ import annotations

import pytest

from scratchpad import Scratchpad, writing


def records(messages: list[dict], **kwargs) -> list[dict]:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages, **kwargs)
        return [r.to_json() for r in pad.records("t")]


def test_batches_and_progress_change_no_record(monkeypatch: pytest.MonkeyPatch,
                                               espresso_messages: list[dict]) -> None:
    messages = [m for m in espresso_messages if m["role"] != "system"] * 4  # 164: 3 batches
    seen: list[tuple[int, int]] = []
    batched = records(messages, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 164) for n in range(1, 165)]
    monkeypatch.setattr(writing, "ANNOTATE_BATCH", 10_000)
    assert records(messages) == batched
