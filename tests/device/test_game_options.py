"""A game's options are a typed ``GameOptions`` (issue 25); on disk they stay the JSON object the box always wrote,
so a row saved by older code (its options written as a plain dict, keys in any order, ``pictures: false`` spelt
out, keys this code does not know) reads into the same values and resumes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from boxscript import make_record, mock_app

from device import modes
from device.game import routed_row
from device.modes import GameOptions, RemoteOptions
from device.storage import Storage

#: options objects exactly as the code before issue 25 wrote them, one per family (and remote play)
OLD_ROWS = {
    "duet": {"language": "fr", "orientation": "table", "pack": "fr"},
    "mission": {"language": "en", "orientation": "upright", "pack": "en", "sheet": 3},
    "duet_pictures": {"language": "fr", "orientation": "table", "pack": "fr", "pictures": True},
    "hotseat": {"language": "fr", "orientation": "table", "pack": "fr", "hotseat": True},
    "classic": {"language": "de", "pictures": False, "variant": "duo", "pack": "de"},
    "pictures": {"language": "fr", "pictures": True, "variant": "standard", "pack": "fr"},
    "solo": {"language": "en", "orientation": "table", "solo": "B", "difficulty": "hard"},
    "remote": {"language": "en", "remote": {"role": "guest", "game": "g-1", "seat": "B"}, "orientation": "upright"},
}


def test_old_option_objects_read_into_typed_fields() -> None:
    duet = GameOptions.from_dict(OLD_ROWS["duet"])
    assert duet == GameOptions(language="fr", orientation="table", pack="fr")
    assert GameOptions.from_dict(OLD_ROWS["mission"]).sheet == 3
    assert GameOptions.from_dict(OLD_ROWS["duet_pictures"]).pictures
    assert GameOptions.from_dict(OLD_ROWS["hotseat"]).hotseat
    classic = GameOptions.from_dict(OLD_ROWS["classic"])
    assert (classic.language, classic.variant, classic.pack, classic.pictures) == ("de", "duo", "de", False)
    solo = GameOptions.from_dict(OLD_ROWS["solo"])
    assert (solo.solo, solo.difficulty, solo.orientation) == ("B", "hard", "table")
    remote = GameOptions.from_dict(OLD_ROWS["remote"])
    assert remote.remote == RemoteOptions("guest", "g-1", "B") and remote.orientation == "upright"
    assert GameOptions.from_dict({}) == GameOptions()  # the default of the schema ('{}')


@pytest.mark.parametrize("kind", sorted(OLD_ROWS))
def test_options_written_back_read_the_same(kind: str) -> None:
    old = GameOptions.from_dict(OLD_ROWS[kind])
    assert GameOptions.from_dict(json.loads(json.dumps(old.to_dict()))) == old
    # the keys written are the ones older code wrote (a false switch may be left out: it reads as false)
    assert {k: v for k, v in OLD_ROWS[kind].items() if v is not False} == old.to_dict()


def test_unknown_keys_are_kept_and_written_back() -> None:
    newer = {"language": "it", "pack": "it", "colour_blind": True, "seats": ["A", "B"]}
    options = GameOptions.from_dict(newer)
    assert options.extra == {"colour_blind": True, "seats": ["A", "B"]}
    assert options.to_dict() == newer


def test_the_builders_of_each_family_keep_their_keys() -> None:
    assert modes.duet_options(modes.HOTSEAT, "upright", "en", None).to_dict() == {
        "language": "fr", "orientation": "upright", "pack": "en", "hotseat": True}
    assert modes.classic_options(modes.PICTURES, "trio", "fr").to_dict() == {
        "language": "fr", "pack": "fr", "variant": "trio", "pictures": True}
    assert modes.solo_options("table", "B", "easy").to_dict() == {
        "language": "fr", "orientation": "table", "solo": "B", "difficulty": "easy"}


def test_a_row_saved_by_older_code_resumes_with_its_options(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    record = make_record(7)
    setup = {k: v for k, v in record.items() if k != "actions"}
    for kind, options in OLD_ROWS.items():  # written as the code before issue 25 did: a plain JSON object
        storage.db.execute("INSERT INTO games (mode, kind, setup, options, sheet, started) VALUES (?, ?, ?, ?, ?, ?)",
                           ("duet", kind, json.dumps(setup), json.dumps(options), options.get("sheet"), 1.0))
    rows = {row.kind: row for row in storage.games()}
    assert rows["mission"].options.sheet == 3 and rows["solo"].options.solo == "B"
    assert routed_row(rows["remote"]) and not any(routed_row(r) for k, r in rows.items() if k != "remote")
    # a row of the schema's default options ('{}': the oldest rows) reads as the defaults
    storage.db.execute("INSERT INTO games (mode, kind, setup, started) VALUES ('duet', 'duet', ?, 2.0)",
                       (json.dumps(setup),))
    newest = storage.current_game()
    assert newest is not None and newest.options == GameOptions()
    # and a new game keeps what it was given
    game = storage.new_game("duet", setup, kind="mission", options=replace(GameOptions(pack="en"), sheet=1))
    saved = storage.game(game)
    assert saved is not None and saved.options == GameOptions(pack="en", sheet=1)
    assert json.loads(storage.db.execute("SELECT options FROM games WHERE id = ?", (game,)).fetchone()[0]) == {
        "language": "fr", "pack": "en", "sheet": 1}
    storage.close()


def test_an_old_row_resumes_in_the_app(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "data")
    record = make_record(7, actions=[{"type": "clue", "seat": "A", "word": None, "number": 2}])
    setup = {k: v for k, v in record.items() if k != "actions"}
    storage.db.execute("INSERT INTO games (mode, kind, setup, options, started) VALUES (?, ?, ?, ?, ?)",
                       ("duet", "hotseat", json.dumps(setup), json.dumps(OLD_ROWS["hotseat"]), 1.0))
    game = storage.db.execute("SELECT id FROM games").fetchone()[0]
    storage.db.execute("INSERT INTO actions (game, seq, action) VALUES (?, 0, ?)",
                       (game, json.dumps(record["actions"][0])))
    storage.close()
    app = mock_app(tmp_path)
    app.start()
    assert app.game.id == game and app.game.session is not None and app.game.session.version == 1
    assert app.game.options.hotseat and app.game.mode is modes.HOTSEAT and app.screen is not None
    assert app.screen.name == "play"
    app.shutdown()


def _started_with(mode: modes.Mode) -> GameOptions:
    """The options a new game of ``mode`` is saved with, every optional one given (a sheet, a variant...)."""
    if mode.remote:
        from device.remote.play import RemotePlay

        return replace(RemotePlay.remote_options("host", "g-2"), sheet=4)
    if mode.family is modes.Family.CLASSIC:
        return modes.classic_options(mode, "duo", "en")
    if mode.family is modes.Family.SOLO:
        return modes.solo_options("upright", "B", "hard")
    return modes.duet_options(mode, "upright", "en", 4 if mode.mission else None)


@pytest.mark.parametrize("mode", modes.modes(), ids=lambda m: m.kind)
def test_each_mode_says_which_options_its_games_take(mode: modes.Mode) -> None:
    options = _started_with(mode)
    assert options.given() == mode.takes  # what its descriptor lists, no more and no less
    assert options.pictures == mode.pictures and options.hotseat == mode.hotseat
