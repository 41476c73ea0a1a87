"""One Scratchpad shared by threads, as agent frameworks use it (hooks in worker
threads, asyncio's executor): the same records as one thread alone, no error, and one
thread's history synced from several threads at once stored once."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from scratchpad import Scratchpad
from scratchpad.aio import AsyncScratchpad

THREADS = 6


def _records(pad: Scratchpad, thread: str) -> list[dict]:
    return [{k: v for k, v in r.to_json().items() if k != "thread"}
            for r in pad.records(thread)]


@pytest.fixture(scope="module")
def alone(espresso_messages) -> list[dict]:
    """What one thread alone gets for the first 24 espresso turns."""
    with Scratchpad(":memory:") as pad:
        for k in range(1, 25):
            pad.ingest("e", espresso_messages[:k])
        return _records(pad, "e")


@pytest.mark.parametrize("where", ["memory", "file"])
def test_threads_ingesting_their_own_threads_get_what_one_alone_gets(
        where, tmp_path, espresso_messages, alone) -> None:
    path = ":memory:" if where == "memory" else str(tmp_path / "shared.db")
    with Scratchpad(path) as pad:
        def work(n: int) -> None:
            for k in range(2, 25):  # turn by turn, as a live agent loop calls it
                pad.ingest(f"t{n}", espresso_messages[:k])
                pad.render(f"t{n}")
                pad.open_items()

        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            list(pool.map(work, range(THREADS)))
        assert pad.threads() == sorted(f"t{n}" for n in range(THREADS))
        for n in range(THREADS):
            assert _records(pad, f"t{n}") == alone


def test_one_history_synced_from_several_threads_is_stored_once(espresso_messages) -> None:
    history = espresso_messages[:20]
    with Scratchpad(":memory:") as pad:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            results = list(pool.map(lambda _: pad.sync("e", history), range(THREADS)))
        stored = [t.content for t in pad.store.turns("e")]
    assert stored == [m["content"] or "" for m in history if m["role"] != "system"]
    assert sorted(n for r in results for n in r.new_turns) == list(range(1, len(stored) + 1))


def test_async_pad_runs_the_same_calls_as_coroutines(espresso_messages, alone) -> None:
    async def main() -> tuple[list[dict], str, int]:
        async with AsyncScratchpad(":memory:") as pad:
            await asyncio.gather(*(pad.ingest(f"t{n}", espresso_messages[:24])
                                   for n in range(3)))
            synced = await pad.sync("t0", espresso_messages[:24])
            block = await pad.render("t1")
            items = await pad.open_items()
            return [{k: v for k, v in r.to_json().items() if k != "thread"}
                    for r in await pad.records("t2")], block, len(items) + len(synced.new_turns)

    records, block, _ = asyncio.run(main())
    assert records == alone
    assert "A-77215" in block
