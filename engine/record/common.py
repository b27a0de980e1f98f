"""What every record shares: the format name, the header check, the result of a replay."""

from __future__ import annotations

from dataclasses import dataclass

from ..classic import ClassicState
from ..duet import DuetState
from ..errors import BadRecord

FORMAT = "duetbox-record/1"
MODES = ("duet", "classic", "pictures")


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a replay: the last state reached, and the refusal that stopped it, if any."""

    state: DuetState | ClassicState
    error_index: int | None = None
    error_message: str | None = None

    @property
    def ok(self) -> bool:
        return self.error_index is None


def require(cond: bool, message: str) -> None:
    if not cond:
        raise BadRecord(message)


def check_header(record: object) -> str:
    """The record's mode after checking its header; BadRecord otherwise."""
    require(isinstance(record, dict), "a record must be a JSON object")
    assert isinstance(record, dict)
    require(record.get("format") == FORMAT, f"'format' must be {FORMAT!r}")
    mode = record.get("mode", "duet")
    require(mode in MODES, "'mode' must be 'duet', 'classic' or 'pictures'")
    return str(mode)
