"""device.storage: durable settings, games, decks, sheets; a corrupt database is moved aside."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from boxscript import run_box

from device.storage import DB_NAME, Storage, data_dir


def test_storage_data_dir_order() -> None:
    assert data_dir("/x", {"STATE_DIRECTORY": "/s"}) == Path("/x")
    assert data_dir(None, {"STATE_DIRECTORY": "/s:/t"}) == Path("/s")
    assert data_dir(None, {"HOME": "/h"}) == Path("/h/.local/share/duetbox")
    assert data_dir(None, {"HOME": "/h", "XDG_DATA_HOME": "/x"}) == Path("/x/duetbox")


def test_storage_wal_and_full_sync(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    s.close()


def test_storage_action_is_committed_at_once(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    game = s.new_game("duet", {"format": "duetbox-record/1"}, kind="duet")
    s.append_action(game, 0, {"type": "penalty"})
    # another connection (another process after a power cut) sees it without any close or flush
    other = sqlite3.connect(tmp_path / DB_NAME)
    assert other.execute("SELECT action FROM actions").fetchall() == [('{"type": "penalty"}',)]
    other.close()
    s.close()


def _traced(s: Storage) -> list[str]:
    statements: list[str] = []
    s.db.set_trace_callback(statements.append)
    return statements


def test_storage_action_and_its_screen_state_share_one_durable_commit(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    game = s.new_game("duet", {"format": "duetbox-record/1"}, kind="duet")
    statements = _traced(s)
    s.append_action(game, 0, {"type": "penalty"}, {"screen": "play", "cursors": {"A": 3}})
    assert sum(st.startswith("COMMIT") for st in statements) == 1
    assert not any("synchronous" in st for st in statements)  # FULL: the commit is fsync'd
    other = sqlite3.connect(tmp_path / DB_NAME)
    assert other.execute("SELECT count(*) FROM actions").fetchone()[0] == 1
    assert other.execute("SELECT state FROM ui").fetchone()[0] == '{"screen": "play", "cursors": {"A": 3}}'
    other.close()
    s.close()


def test_storage_refused_action_leaves_the_screen_state_alone(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    game = s.new_game("duet", {"format": "duetbox-record/1"}, kind="duet")
    s.append_action(game, 0, {"type": "penalty"}, {"screen": "play", "n": 1})
    try:
        s.append_action(game, 0, {"type": "penalty"}, {"screen": "play", "n": 2})
    except sqlite3.IntegrityError:
        pass
    assert s.load_ui(game) == {"screen": "play", "n": 1}  # rolled back with the duplicate action
    s.close()


def test_storage_screen_state_alone_is_committed_without_fsync_then_full_again(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    game = s.new_game("duet", {"format": "duetbox-record/1"}, kind="duet")
    statements = _traced(s)
    s.save_ui(game, {"screen": "play", "cursors": {"A": 7}}, False)
    assert statements[0] == "PRAGMA synchronous=NORMAL" and statements[-1] == "PRAGMA synchronous=FULL"
    assert s.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again for the next action
    other = sqlite3.connect(tmp_path / DB_NAME)  # committed: another process sees it
    assert other.execute("SELECT state FROM ui").fetchone()[0] == '{"screen": "play", "cursors": {"A": 7}}'
    other.close()
    statements.clear()
    s.save_ui(game, {"screen": "closed"})
    assert not any("synchronous" in st for st in statements)
    s.close()


def test_storage_same_action_twice_is_refused(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    game = s.new_game("duet", {}, kind="duet")
    s.append_action(game, 0, {"type": "penalty"})
    try:
        s.append_action(game, 0, {"type": "penalty"})
    except sqlite3.IntegrityError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a second action at the same version was stored")
    assert s.actions(game) == [{"type": "penalty"}]
    s.close()


def test_storage_corrupt_database_moved_aside(tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / DB_NAME).write_bytes(b"this is not a database, just some bytes " * 200)
    with caplog.at_level(logging.ERROR, logger="duetbox.storage"):
        s = Storage(tmp_path)
    assert s.moved_aside is not None and s.moved_aside.exists()
    assert len([r for r in caplog.records if r.name == "duetbox.storage"]) == 1
    s.set_setting("language", "en")
    assert s.settings() == {"language": "en"}
    s.close()


def test_storage_corrupt_database_box_still_starts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DB_NAME).write_bytes(b"\x00garbage" * 1000)
    code, snaps, _ = run_box(tmp_path, "snapshot menu\n", data=data)
    assert code == 0
    assert (snaps / "menu-shared.png").exists()
    assert list(data.glob(f"{DB_NAME}.corrupt-*"))


def test_storage_statistics_and_streaks(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    for result, score in (("won", 12), ("won", 20), ("lost", None), ("won", 8)):
        g = s.new_game("duet", {}, kind="duet")
        s.finish_game(g, result, score)
    s.new_game("duet", {}, kind="duet")  # unfinished: not counted
    stats = s.statistics()["duet"]
    assert stats == {"games": 4, "wins": 3, "best": 20, "streak": 1, "best_streak": 2}
    s.reset_statistics()
    assert s.statistics() == {}
    assert s.current_game() is not None
    s.close()


def test_storage_sheets_and_mission_history(tmp_path: Path) -> None:
    s = Storage(tmp_path)
    sheet = s.new_sheet("LES AS")
    s.record_mission(sheet, "Prague", False, None)
    s.record_mission(sheet, "Prague", True, None)
    assert s.sheets() == [(sheet, "LES AS")]
    assert s.mission_log(sheet) == [("Prague", False), ("Prague", True)]
    assert s.mission_history(sheet) == {"Prague": (1, 1)}
    assert s.ticked(sheet) == {"Prague"}
    s.close()


def test_storage_deck_no_repeat_until_pack_used(tmp_path: Path) -> None:
    from device.app import App
    from device.screens.flows import deal_words
    from engine.words import load_pack
    from hardware.factory import open_box

    app = App(open_box("mock"), Storage(tmp_path), seed=3)
    pack = load_pack("en")
    rounds = len(pack.words) // 25
    seen: set[str] = set()
    for _ in range(rounds):
        words, _lang = deal_words(app, "en")
        assert not seen & set(words)
        seen |= set(words)
    app.shutdown()


def test_storage_unwritable_directory_is_one_clear_error(tmp_path: Path) -> None:
    import os

    import pytest

    from device.storage import StorageError

    if os.geteuid() == 0:
        pytest.skip("root can write anywhere")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(StorageError):
            Storage(locked)
    finally:
        locked.chmod(0o700)


def test_storage_not_a_directory_is_one_clear_error(tmp_path: Path) -> None:
    import pytest

    from device.storage import StorageError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StorageError):
        Storage(blocker / "data")
