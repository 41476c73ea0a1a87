"""The store protocol: what the pipeline, compaction and the CLI ask of a database.

:class:`Store` is what the rest of Scratchpad talks to;
:class:`scratchpad.store.sqlite.SQLiteStore` (an embedded SQLite file, through
sqlite-utils) is its one implementation today, and this package is the only code that
writes SQL. Another backend implements the same protocol and passes the same tests
(``tests/test_store.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scratchpad.errors import ScratchpadError
from scratchpad.records import Event, Kind, Record, Status
from scratchpad.salience import ValueGroup


@dataclass(frozen=True)
class StoredTurn:
    """A turn as stored: its number, role, text and the message it came from."""

    thread: str
    turn: int
    role: str
    content: str
    content_hash: str
    tokens: int
    message: dict[str, Any]
    timestamp: str | None = None


class StaleThreadError(ScratchpadError):
    """A turn was written by another writer since this one read the thread's turns: the
    caller reads the thread again and carries on from what is stored."""

    def __init__(self, thread: str, stored: int, turn: int):
        super().__init__(f"thread {thread!r} has {stored} stored turns; turn {turn} no longer "
                         f"follows them (another writer extended the thread)")
        self.thread = thread
        self.stored = stored


class Store(Protocol):
    """Everything the rest of Scratchpad asks of a database."""

    def close(self) -> None:
        """Release the connection."""
        ...

    # -- threads and turns
    def threads(self) -> list[str]:
        """Every thread id, sorted."""
        ...

    def has_thread(self, thread: str) -> bool:
        """Whether ``thread`` has been ingested."""
        ...

    def turn_hashes(self, thread: str) -> list[str]:
        """The content hashes of the stored turns of ``thread``, in turn order."""
        ...

    def turn_count(self, thread: str) -> int:
        """How many turns ``thread`` has stored."""
        ...

    def last_turn_hashes(self, thread: str, count: int) -> list[str]:
        """The content hashes of the last ``count`` stored turns of ``thread``, in turn
        order."""
        ...

    def turn_numbers(self, thread: str, hashes: Iterable[str]) -> dict[str, list[int]]:
        """For each of ``hashes`` that stored turns have, their turn numbers in order."""
        ...

    def turn_tokens(self, thread: str, numbers: Iterable[int]) -> dict[int, int]:
        """The stored token count of each of the turns ``numbers`` that has one."""
        ...

    def last_text_turns(self, thread: str) -> dict[str, int]:
        """Per role, the latest turn whose content is not empty."""
        ...

    def turns(self, thread: str, since: int = 1) -> list[StoredTurn]:
        """The stored turns of ``thread`` from turn ``since`` on."""
        ...

    def turn_timestamp(self, thread: str, turn: int) -> str | None:
        """The timestamp of one turn, if its message carried one."""
        ...

    def last_turn_times(self, threads: Iterable[str]) -> dict[str, tuple[int, str | None]]:
        """Per thread, its last turn number and that turn's timestamp."""
        ...

    def delete_thread(self, thread: str) -> None:
        """Delete a thread with everything stored for it, in one transaction."""
        ...

    # -- writing one turn
    def value_groups(self, thread: str, keys: Iterable[str]) -> dict[str, ValueGroup]:
        """What the thread has shown so far of each of the values ``keys``."""
        ...

    def add_turn(self, turn: StoredTurn, records: Sequence[Record], updated: Sequence[Record],
                 events: Sequence[Event], groups: Sequence[ValueGroup] = (),
                 held: Sequence[Record] = ()) -> None:
        """Store one turn, its new records, changed records, events and held values
        atomically (a record of an earlier turn among ``records`` is a held one
        released); raise :class:`StaleThreadError` (writing nothing) unless the stored
        turns end right before it."""
        ...

    def held_values(self, thread: str, keys: Iterable[str]) -> list[Record]:
        """The held values of ``thread`` restated under any of ``keys``, in turn order."""
        ...

    # -- records and events
    def records(self, thread: str, kinds: Iterable[Kind | str] | None = None,
                statuses: Iterable[Status | str] | None = None,
                turn: int | None = None) -> list[Record]:
        """Records of ``thread`` in (turn, start, end, kind) order, optionally filtered
        (``turn``: only that turn's)."""
        ...

    def recent_records(self, thread: str, kinds: Iterable[Kind | str],
                       statuses: Iterable[Status | str], per_kind: int) -> list[Record]:
        """The latest ``per_kind`` records of each kind in ``statuses``, oldest first."""
        ...

    def open_items(self, thread: str | None = None) -> list[Record]:
        """Open or deferred questions, of one thread or all, by thread and turn."""
        ...

    def events(self, thread: str) -> list[Event]:
        """The events of ``thread`` in the order they happened."""
        ...

    # -- the running summary
    def summary(self, thread: str) -> str | None:
        """The JSON of ``thread``'s running summary, if it was ever compacted."""
        ...

    def save_summary(self, thread: str, summary_json: str, last_turn: int) -> None:
        """Replace ``thread``'s running summary."""
        ...

    # -- domain schemas attached to threads
    def attach_schema(self, thread: str, schema: str, table_name: str) -> None:
        """Record that ``thread``'s state as ``schema`` is kept in ``table_name``."""
        ...

    def attached_schemas(self, thread: str | None = None) -> list[tuple[str, str, str]]:
        """(thread, schema, table name) of every attachment, in attachment order."""
        ...

    def save_state(self, table_name: str, row: dict[str, Any]) -> None:
        """Replace one thread's row of a schema's state table."""
        ...

    def state_missing(self, table_name: str, thread: str) -> tuple[list[str], int] | None:
        """The stored ``missing`` list of a state row and the turn it was computed at."""
        ...
