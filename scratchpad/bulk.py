"""Extract many conversations at once, on every core: what ``extract`` and ``eval`` run.

Each conversation is ingested into an in-memory store and its records come back as record
JSON, in the corpus order, whatever the number of workers: the records of a conversation
depend on that conversation only, so the output is the same bytes with one worker or
several (``tests/test_bulk.py``).

With more than one worker, conversations go to a pool of processes, a few at a time
(:data:`CHUNK`). Each worker sets up its own pad once. Where the platform can fork, the
parent loads the spaCy model and compiles the patterns first (a warm-up turn), so the
workers start with both in memory instead of loading them again; elsewhere each worker
loads them once. Messages are parsed in the parent, so bad input fails as it does with
one worker: one clear error naming the line, before any work starts.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from scratchpad.messages import Message, parse_messages

log = logging.getLogger(__name__)

#: Conversations a worker takes at a time: measured on the dev corpus (1,160 dialogues,
#: 2 cores), 2-8 are within noise of each other; larger chunks leave a core idle at the end.
CHUNK = 4
#: Below this many conversations per worker, one process is faster than starting a pool.
MIN_PER_WORKER = 8

Output = tuple[Mapping[str, Any], list[dict[str, Any]]]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_corpus(
    rows: Iterable[Mapping[str, Any]],
    *,
    extractors: Sequence[str] | None = None,
    model: str | None = None,
    source: str = "corpus",
    workers: int | None = 1,
    **options: Any,
) -> Iterator[Output]:
    """Ingest each conversation into an in-memory store; yield (row, record JSON list) in
    the order of ``rows``.

    ``workers``: processes to use (None: every core); a small corpus runs in this process
    whatever it says. ``options`` go to :class:`~scratchpad.Scratchpad`
    (``reference_date``, ``date_order``, ``patterns``)."""
    rows = list(rows)
    parsed = [(str(row["id"]), parse_messages(row["messages"],
                                              source=f"{source}:{row.get('_line', '?')}"))
              for row in rows]
    settings = {"extractors": extractors, "model": model, **options}
    count = min(workers or cores(), len(rows) // MIN_PER_WORKER)
    log.info("extracting %d conversations in %d process(es)", len(rows), max(count, 1))
    if count <= 1:
        from scratchpad.pipeline import Scratchpad

        with Scratchpad(":memory:", **settings) as pad:
            for row, (thread, messages) in zip(rows, parsed, strict=True):
                yield row, _extract(pad, thread, messages)
        return
    context = _context(settings)
    with context.Pool(count, initializer=_start_worker, initargs=(settings,)) as pool:
        results = pool.imap(_work, parsed, chunksize=CHUNK)
        yield from zip(rows, results, strict=True)


def _extract(pad: Any, thread: str, messages: list[Message]) -> list[dict[str, Any]]:
    pad.ingest(thread, messages)
    return [r.to_json() for r in pad.store.records(thread)]


def _context(settings: dict[str, Any]) -> Any:
    """Fork after a warm-up where the platform allows it, else spawn fresh workers."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    from scratchpad.pipeline import Scratchpad

    with Scratchpad(":memory:", **settings) as pad:  # load the model, compile the patterns
        pad.ingest("warm-up", [{"role": "user", "content": "Refund €930 for A-77215 by "
                                                           "Friday? I'll send it today."}])
    return multiprocessing.get_context("fork")


_pad: Any = None


def _start_worker(settings: dict[str, Any]) -> None:
    global _pad
    from scratchpad.pipeline import Scratchpad

    _pad = Scratchpad(":memory:", **settings)


def _work(item: tuple[str, list[Message]]) -> list[dict[str, Any]]:
    thread, messages = item
    return _extract(_pad, thread, messages)
