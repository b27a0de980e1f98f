"""A sqlite3 shim for storage fault injection (not luck): a connection class whose writes fail on demand the
way SQLite reports a full disk, a read-only file or an I/O error, including the worst case of an fsync that
fails after the transaction reached the WAL (``eio_fsync``: COMMIT runs, then the error is raised)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

MESSAGES = {
    "full": "database or disk is full",
    "readonly": "attempt to write a readonly database",
    "eio_write": "disk I/O error",
    "eio_fsync": "disk I/O error",
}
MODES = tuple(MESSAGES)
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@dataclass
class Faults:
    """The switch every connection of one factory reads: ``mode`` (None = storage works)."""

    mode: str | None = None
    hits: int = 0

    def factory(self) -> type[sqlite3.Connection]:
        faults = self

        class FaultyConnection(sqlite3.Connection):
            def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:  # type: ignore[override]
                verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
                mode = faults.mode
                if mode in ("full", "readonly", "eio_write") and verb in _WRITES:
                    faults.hits += 1
                    raise sqlite3.OperationalError(MESSAGES[mode])
                if mode == "eio_fsync" and verb == "COMMIT":
                    cursor = super().execute(sql, parameters)  # the frames reach the WAL...
                    faults.hits += 1
                    raise sqlite3.OperationalError(MESSAGES[mode])  # ...but the fsync failed
                    return cursor  # pragma: no cover
                return super().execute(sql, parameters)

        return FaultyConnection
