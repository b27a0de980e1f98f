"""Game records (``duetbox-record/1``): a game's set-up plus its actions, as JSON. Replay folds the actions.

A record is the exportable form of a game and the form the box stores; like PGN for chess, it replays to the
state. One package for every mode: ``common`` (format, header, replay result), ``duet`` (Duet, with pictures,
missions), ``classic`` (classic and Pictures); this module dispatches on the record's mode.
"""

from __future__ import annotations

from typing import Any

from ..duet import DuetState
from .classic import classic_record_of, classic_summary, load_classic, replay_classic
from .common import FORMAT, MODES, ReplayResult, check_header
from .duet import duet_rules_from, duet_summary, load_duet, record_of, replay_duet

__all__ = ["FORMAT", "MODES", "ReplayResult", "check_header", "classic_record_of", "classic_summary",
           "duet_rules_from", "duet_summary", "load_classic", "load_duet", "record_of", "replay",
           "replay_classic", "replay_duet", "summary"]


def replay(record: object) -> ReplayResult:
    """Replay a record: BadRecord when it is not a valid record; a refused action stops the replay."""
    mode = check_header(record)
    assert isinstance(record, dict)
    if mode == "duet":  # Duet with pictures is a Duet record
        return replay_duet(record)
    return replay_classic(record)


def summary(result: ReplayResult) -> dict[str, Any]:
    if isinstance(result.state, DuetState):
        out = duet_summary(result.state)
    else:
        out = classic_summary(result.state)
    out["error"] = None if result.ok else {"action": result.error_index, "message": result.error_message}
    return out
