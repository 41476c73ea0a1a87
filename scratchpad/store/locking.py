"""Writers wait, they do not fail: how the SQLite store takes its write lock.

Every write transaction starts with ``BEGIN IMMEDIATE``, so a writer takes the database's
one write lock before it reads anything it will change, instead of upgrading a read lock
half-way (which SQLite refuses at once, whatever the busy timeout). While another process
holds the lock, SQLite waits up to the connection's busy timeout; a writer that still
finds the lock taken retries a bounded number of times, then gives up with one line
(:class:`StoreBusyError`). Nothing is written by a transaction that did not commit.

Any other SQLite error becomes a one-line :class:`StoreError` naming the file, never a
traceback.

Within a process, one store may be used from several threads (an agent framework's
worker threads, asyncio's executor): its one connection is shared, and every store call
runs under the store's lock (:func:`store_call`), so one thread's transaction never
takes in another thread's statements.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from scratchpad.errors import ScratchpadError

#: Milliseconds SQLite waits for a lock before it reports the database busy.
BUSY_TIMEOUT_MS = 5_000
#: Times a writer asks for the write lock (each waiting BUSY_TIMEOUT_MS) before it gives up.
LOCK_ATTEMPTS = 12

F = TypeVar("F", bound=Callable[..., Any])


class StoreError(ScratchpadError):
    """The database cannot be read or written (not a database, read-only, disk full...)."""


class StoreBusyError(StoreError):
    """Other writers held the write lock for longer than a writer waits."""


def _busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


@contextmanager
def write_transaction(conn: sqlite3.Connection, where: str) -> Iterator[None]:
    """Run the block in one ``BEGIN IMMEDIATE`` transaction; commit, or roll back and
    re-raise. Waits (bounded) for the write lock; ``where`` names the file in errors."""
    for attempt in range(1, LOCK_ATTEMPTS + 1):
        try:
            conn.execute("BEGIN IMMEDIATE")
            break
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            if attempt == LOCK_ATTEMPTS:
                waited = LOCK_ATTEMPTS * BUSY_TIMEOUT_MS / 1000
                raise StoreBusyError(
                    f"database {where} is busy: other writers held its write lock for "
                    f"more than {waited:.0f} s; nothing was written, try again") from None
            time.sleep(min(0.05 * attempt, 0.5))
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


def store_call(method: F) -> F:
    """Run a store method under the store's lock (``self.lock``, once it has one), and
    turn the SQLite errors it raises into a one-line :class:`StoreError`."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        lock = self.__dict__.get("lock") or contextlib.nullcontext()
        with lock:
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise StoreError(f"database {self.path}: {exc}") from None

    return wrapper  # type: ignore[return-value]
