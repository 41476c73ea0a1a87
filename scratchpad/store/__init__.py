"""The store: where turns, records, events, summaries and schema states are kept.

:class:`Store` (:mod:`scratchpad.store.base`) is what the pipeline, compaction and the CLI
talk to; :class:`SQLiteStore` (an embedded SQLite file, through sqlite-utils) is its one
implementation today, and this package is the only code that writes SQL.
"""

from __future__ import annotations

from scratchpad.store.base import StaleThreadError, Store, StoredTurn
from scratchpad.store.locking import StoreBusyError, StoreError
from scratchpad.store.sqlite import SQLiteStore


def open_store(path: str) -> Store:
    """Open the store at ``path``: a SQLite file (created if missing) or ``":memory:"``."""
    return SQLiteStore(path)


__all__ = ["SQLiteStore", "StaleThreadError", "Store", "StoreBusyError", "StoreError", "StoredTurn",
           "open_store"]
