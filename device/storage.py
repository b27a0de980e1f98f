"""Saved data: one SQLite file in the data directory (WAL, synchronous=FULL).

What is kept: every game (its set-up as a record without actions, then each accepted action, committed before
the box shows its result), the screen a game stood on (to resume it exactly), campaign sheets and their
mission results, settings, and one deck per word pack (so words do not come back before the pack is used up).
Statistics are computed from the finished games.

A database that cannot be opened or fails its integrity check is moved aside (one log line) and a fresh one is
started: a corrupt file must never put the box in a crash loop."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from common.jsonvalue import Json, JsonObject
from device.modes import GameOptions

log = logging.getLogger("duetbox.storage")

DB_NAME = "duetbox.db"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mode TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    setup TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'playing',
    result TEXT,
    score INTEGER,
    sheet INTEGER,
    mission TEXT,
    started REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS ui (game INTEGER PRIMARY KEY, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sheets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS mission_results (
    sheet INTEGER NOT NULL REFERENCES sheets(id),
    city TEXT NOT NULL,
    won INTEGER NOT NULL,
    game INTEGER,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS decks (pack TEXT PRIMARY KEY, used TEXT NOT NULL);
"""


def data_dir(arg: str | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """``--data-dir``, else ``$DUETBOX_DATA_DIR``, else ``$STATE_DIRECTORY`` (systemd; first entry), else the user
    data directory (``$XDG_DATA_HOME/duetbox``, ``~/.local/share/duetbox``). ``partner.paths.data_dir`` agrees."""
    env = os.environ if environ is None else environ
    if arg:
        return Path(arg)
    for name in ("DUETBOX_DATA_DIR", "STATE_DIRECTORY"):
        value = env.get(name, "")
        if value:
            return Path(value.split(":")[0])
    base = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME", str(Path.home()))) / ".local" / "share")
    return Path(base) / "duetbox"


#: A value SQLite stores or returns (the parameters of a statement).
SqlValue: TypeAlias = "str | int | float | bytes | None"
#: What a statement is run with, and what a failed write takes back: (SQL, its parameters).
Statement: TypeAlias = "tuple[str, tuple[SqlValue, ...]]"
#: One row of ``_GAME_COLUMNS``, typed as the schema stores it.
_GameTuple: TypeAlias = ("tuple[int, str, str, str, str, str, str | None, int | None, int | None, str | None]")


@dataclass(frozen=True)
class GameRow:
    """A saved game: ``setup`` is its record without actions (parsed by ``engine.session``), ``options`` what it
    was started with beside it (typed; the JSON object on disk keeps the keys it always had)."""

    id: int
    mode: str
    kind: str
    setup: JsonObject
    options: GameOptions
    status: str
    result: str | None
    score: int | None
    sheet: int | None
    mission: str | None


class StorageError(RuntimeError):
    """The data directory cannot be used at all (not writable, or locked by another duetbox)."""


LOCK_NAME = "duetbox.lock"
#: Locks this process holds: data directory -> [descriptor, users]. Several Storage objects of one process may
#: share a directory (tests, the bench); another process may not.
_HELD: dict[str, list[int]] = {}


@dataclass(frozen=True)
class Finish:
    """What finishing a game writes with its last action (one transaction): the result, the score and, for a
    mission of a campaign sheet, its tick."""

    result: str
    score: int | None = None
    sheet: int | None = None
    city: str | None = None


class Storage:
    """The box's SQLite database. Every write is its own committed transaction (an action, the screen
    state it leaves and, for the last action, the game's result share one). The data directory is locked
    (``duetbox.lock``, flock) so that a second box process on it stops at once."""

    def __init__(self, directory: Path | str, *, now: Callable[[], float] = time.time, lock: bool = True,
                 factory: type[sqlite3.Connection] = sqlite3.Connection) -> None:
        self.directory = Path(directory)
        self._factory = factory
        self.path = self.directory / DB_NAME
        self._now = now
        self.moved_aside: Path | None = None
        #: Why the last write failed ("disk full", ...), None while storage works: the box shows it.
        self.problem: str | None = None
        #: Something the owner should be told once: the database was started fresh or replaced.
        self.notice: str | None = None
        #: Writes to take back (idempotent deletes) of transactions that failed: a refused action must not
        #: come back after a restart even when its commit reached the WAL before the fsync failed.
        self._undo: list[list[Statement]] = []
        self._files: tuple[int | None, int | None] = (None, None)
        self._lock_key: str | None = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = exc.strerror or exc
            raise StorageError(f"cannot create the data directory {self.directory}: {why}") from None
        if lock:
            self._lock()
        empty = self.path.exists() and self.path.stat().st_size == 0 and not self._side("-wal").exists()
        try:
            self.db = self._connect()
        except sqlite3.OperationalError as exc:  # cannot open or write (permissions, locked): not corruption
            raise StorageError(f"cannot use the database {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:  # not a database, malformed, failed integrity check
            try:
                self._move_aside(str(exc))
                self.db = self._connect()
            except (OSError, sqlite3.Error) as again:
                self._unlock()
                raise StorageError(f"cannot start a fresh database in {self.directory}: {again}") from None
        if empty:
            log.error("the database %s was an empty file: started a fresh one (settings and games are gone)",
                      self.path)
            self.notice = "empty"
        elif self.moved_aside is not None:
            self.notice = "moved_aside"
        self._files = self._identity()

    # -- the data directory's lock ---------------------------------------------------------------------------
    def _lock(self) -> None:
        """One duetbox per data directory: a second one would interleave its writes with ours."""
        import fcntl  # POSIX only, like the box: imported where used

        key = os.path.realpath(self.directory)
        if key in _HELD:
            _HELD[key][1] += 1
            self._lock_key = key
            return
        path = self.directory / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            raise StorageError(f"cannot lock the data directory {self.directory}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
            except OSError:
                holder = ""
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise StorageError(f"another duetbox is already using {self.directory}{who}") from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:  # a full disk: the lock holds all the same
            pass
        _HELD[key] = [fd, 1]
        self._lock_key = key

    def _unlock(self) -> None:
        key, self._lock_key = self._lock_key, None
        if key is None or key not in _HELD:
            return
        _HELD[key][1] -= 1
        if _HELD[key][1] <= 0:
            os.close(_HELD.pop(key)[0])  # closing the descriptor releases the flock

    # -- the files under the connection ----------------------------------------------------------------------
    def _side(self, suffix: str) -> Path:
        return self.path.with_name(DB_NAME + suffix)

    def _identity(self) -> tuple[int | None, int | None]:
        """(inode of the database, inode of its WAL): a change means a file was removed or replaced."""
        out: list[int | None] = []
        for target in (self.path, self._side("-wal")):
            try:
                out.append(target.stat().st_ino)
            except OSError:
                out.append(None)
        return out[0], out[1]

    def _check_files(self) -> None:
        """Before a write: if the WAL was removed (or the database replaced) under the open connection, what we
        commit would go to a file nobody can read again. Fold the WAL into the database, reopen, say so."""
        now = self._identity()
        if now == self._files:
            return
        db_then, wal_then = self._files
        db_now, wal_now = now
        if db_then is not None and db_now != db_then:
            log.error("the database %s was removed or replaced while the box ran: reopened", self.path)
            self.notice = "replaced"
        elif wal_then is not None and wal_now != wal_then:
            log.error("the write-ahead log of %s was removed while the box ran: folded into the database "
                      "and reopened (nothing lost)", self.path)
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.error("could not fold the removed WAL back: %s", exc)
        self._reopen()

    def _reopen(self) -> None:
        """A fresh connection (the old one is kept when a new one cannot be had)."""
        fresh = self._connect()
        try:
            self.db.close()
        except sqlite3.Error:  # pragma: no cover - a dead connection
            pass
        self.db = fresh
        self._files = self._identity()

    def _quiet(self, what: str, sql: str, args: Iterable[SqlValue], durable: bool = True) -> bool:
        """A write the box can do without (screen state, a setting, a deck): on failure it is logged, ``problem``
        says why, and the box goes on. False when it was not saved."""
        try:
            self._write(sql, args, (), durable)
        except sqlite3.Error:
            return False
        return True

    # -- opening ---------------------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, factory=self._factory)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            row = db.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")
            db.executescript(_SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self, why: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self._now()))
        target = self.path.with_name(f"{DB_NAME}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{DB_NAME}.corrupt-{stamp}-{n}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(DB_NAME + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        self.moved_aside = target
        log.error("the database %s was unreadable (%s): moved aside to %s, starting a fresh one",
                  self.path, why, target.name)

    def close(self) -> None:
        try:
            self._take_back()
        except sqlite3.Error as exc:
            log.error("closing with %d failed write(s) not taken back: %s", len(self._undo), exc)
        try:
            self.db.close()
        except sqlite3.Error:  # pragma: no cover - closing twice
            pass
        self._unlock()

    def _write(self, sql: str, args: Iterable[SqlValue] = (),
               more: Iterable[tuple[str, Iterable[SqlValue]]] = (), durable: bool = True,
               undo: Iterable[tuple[str, Iterable[SqlValue]]] = ()) -> sqlite3.Cursor:
        """One committed transaction: ``sql`` and then each of ``more``. Durable (the WAL is fsync'd:
        synchronous=FULL) unless ``durable`` is False: then it is atomic and ordered but a power cut may take
        it back (synchronous=NORMAL, no fsync; the next durable commit makes it durable too).

        When it fails (disk full, read-only, I/O error, fsync error) the error is raised after making sure the
        transaction is really not there: the connection is reopened and ``undo`` (idempotent statements) is run;
        if that cannot be written yet it is kept and run before the next write (``problem`` says why)."""
        try:
            self._check_files()
            self._take_back()
        except sqlite3.Error as exc:
            self.problem = _describe(exc)
            raise
        if not durable:
            self.db.execute("PRAGMA synchronous=NORMAL")
        committing = False
        try:
            self.db.execute("BEGIN IMMEDIATE")  # autocommit connection: the transaction is explicit
            try:
                cur = self.db.execute(sql, tuple(args))
                for extra, extra_args in more:
                    self.db.execute(extra, tuple(extra_args))
                committing = True
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    try:
                        self.db.execute("ROLLBACK")
                    except sqlite3.Error:  # the connection is reopened below
                        pass
                raise
        except sqlite3.IntegrityError:  # refused by a constraint (a duplicate): nothing was written
            raise
        except sqlite3.Error as exc:
            self.problem = _describe(exc)
            log.error("a write failed (%s): not saved", exc)
            # a failed COMMIT may still have reached the WAL (the fsync failed after the write): take it back
            self._after_failure([(u, tuple(a)) for u, a in undo] if committing else [])
            raise
        finally:
            if not durable:
                try:
                    self.db.execute("PRAGMA synchronous=FULL")
                except sqlite3.Error:  # pragma: no cover - reopened connections are FULL already
                    pass
        self.problem = None
        return cur

    def _after_failure(self, undo: list[Statement]) -> None:
        if undo:
            self._undo.append(undo)
        try:
            self._reopen()  # the truth after a failed commit is what a fresh connection reads from the files
            self._take_back()
        except sqlite3.Error as exc:
            log.error("storage still failing (%s): %d write(s) to take back when it works", exc, len(self._undo))

    def _take_back(self) -> None:
        """Run the pending take-backs of failed writes (each one transaction, durable)."""
        while self._undo:
            statements = self._undo[0]
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self.db.execute(sql, args)
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    try:
                        self.db.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise
            self._undo.pop(0)

    def retry(self) -> bool:
        """Try storage again after a failure (the loop calls it now and then): True when it works again."""
        try:
            self._check_files()
            self._take_back()
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('probe', ?)", (str(self._now()),))
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            self.problem = _describe(exc)
            try:
                self._reopen()
            except sqlite3.Error:
                pass
            return False
        self.problem = None
        return True

    # -- games -----------------------------------------------------------------------------------------------
    def new_game(self, mode: str, setup: JsonObject, *, kind: str = "",
                 options: GameOptions | None = None, sheet: int | None = None,
                 mission: str | None = None) -> int:
        """Start a game: ``setup`` is its record without actions; ``options`` what the box needs besides."""
        started, text = self._now(), json.dumps(setup, ensure_ascii=False)
        cur = self._write(
            "INSERT INTO games (mode, kind, setup, options, sheet, mission, started)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (mode, kind, text, json.dumps(options.to_dict() if options is not None else {}), sheet, mission, started),
            undo=[("DELETE FROM games WHERE started = ? AND setup = ? AND status = 'playing' AND id NOT IN "
                   "(SELECT game FROM actions)", (started, text))])
        game_id = cur.lastrowid
        assert game_id is not None
        return int(game_id)

    def append_action(self, game: int, seq: int, action: JsonObject,
                      ui: JsonObject | None = None, finish: Finish | None = None) -> None:
        """Commit one accepted action (``seq`` = the version it was applied to; a duplicate raises), durably;
        with ``ui``, the screen state in the same transaction (one fsync for both); with ``finish``, the
        game's result, score and mission tick too: a power cut never leaves a finished game 'playing'."""
        more: list[tuple[str, Iterable[SqlValue]]] = [] if ui is None else [(self._SAVE_UI, (game, json.dumps(ui)))]
        undo: list[tuple[str, Iterable[SqlValue]]] = [("DELETE FROM actions WHERE game = ? AND seq = ?", (game, seq))]
        if finish is not None:
            at = self._now()
            more.append(("UPDATE games SET status = 'over', result = ?, score = ?, ended = ? WHERE id = ?",
                         (finish.result, finish.score, at, game)))
            undo.append(("UPDATE games SET status = 'playing', result = NULL, score = NULL, ended = NULL "
                         "WHERE id = ?", (game,)))
            if finish.sheet is not None and finish.city:
                more.append(("INSERT INTO mission_results (sheet, city, won, game, at) VALUES (?, ?, ?, ?, ?)",
                             (finish.sheet, finish.city, int(finish.result == "won"), game, at)))
                undo.append(("DELETE FROM mission_results WHERE game = ? AND at = ?", (game, at)))
        self._write("INSERT INTO actions (game, seq, action) VALUES (?, ?, ?)",
                    (game, seq, json.dumps(action, ensure_ascii=False)), more, undo=undo)

    def set_setup(self, game: int, setup: JsonObject) -> None:
        """Replace a game's set-up (a remote game's key card turned over at its end: docs/remote.md)."""
        self._write("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(setup, ensure_ascii=False), game))

    def actions(self, game: int) -> list[JsonObject]:
        rows = self.db.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game,)).fetchall()
        return [_object(r[0]) for r in rows]

    def finish_game(self, game: int, result: str, score: int | None = None) -> None:
        self._write("UPDATE games SET status = 'over', result = ?, score = ?, ended = ? WHERE id = ?",
                    (result, score, self._now(), game))

    def discard_game(self, game: int) -> None:
        """Take back a game that could not be started whole (a record's actions refused by a failing storage):
        it goes, with its actions and screen state. While storage fails this waits, like every take-back, to
        run before the next write and at shutdown."""
        self._undo.append([("DELETE FROM ui WHERE game = ?", (game,)), ("DELETE FROM actions WHERE game = ?", (game,)),
                           ("DELETE FROM games WHERE id = ? AND status = 'playing'", (game,))])
        try:
            self._take_back()
        except sqlite3.Error as exc:
            self.problem = _describe(exc)
            log.error("storage still failing (%s): the unsaved game is taken back when it works", exc)

    def failed_read(self, exc: sqlite3.Error) -> None:
        """A read failed (an I/O error on the card): logged, and said on the screen like a failed write."""
        self.problem = _describe(exc)
        log.error("a read failed (%s)", exc)

    def abandon_game(self, game: int) -> bool:
        """Mark a game abandoned (False when storage failed: it stays resumable, nothing is lost)."""
        return self._quiet("abandon", "UPDATE games SET status = 'abandoned', ended = ? WHERE id = ?",
                           (self._now(), game))

    def _row(self, r: _GameTuple) -> GameRow:
        return GameRow(id=r[0], mode=r[1], kind=r[2], setup=_object(r[3]),
                       options=GameOptions.from_dict(_object(r[4])), status=r[5], result=r[6], score=r[7],
                       sheet=r[8], mission=r[9])

    _GAME_COLUMNS = "id, mode, kind, setup, options, status, result, score, sheet, mission"

    def game(self, game: int) -> GameRow | None:
        r = self.db.execute(f"SELECT {self._GAME_COLUMNS} FROM games WHERE id = ?", (game,)).fetchone()
        return self._row(r) if r else None

    def current_game(self) -> GameRow | None:
        """The unfinished game (the newest one), if any."""
        r = self.db.execute(f"SELECT {self._GAME_COLUMNS} FROM games WHERE status = 'playing' "
                            "ORDER BY id DESC LIMIT 1").fetchone()
        return self._row(r) if r else None

    def last_game(self) -> GameRow | None:
        r = self.db.execute(f"SELECT {self._GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return self._row(r) if r else None

    def games(self) -> list[GameRow]:
        rows = self.db.execute(f"SELECT {self._GAME_COLUMNS} FROM games ORDER BY id").fetchall()
        return [self._row(r) for r in rows]

    # -- the screen a game stands on -------------------------------------------------------------------------
    _SAVE_UI = "INSERT OR REPLACE INTO ui (game, state) VALUES (?, ?)"

    def save_ui(self, game: int, state: JsonObject, durable: bool = True) -> None:
        """The screen state of ``game``. ``durable=False``: atomic but not fsync'd (a cursor move need not
        survive a power cut; the next action's commit makes it durable)."""
        self._quiet("screen state", self._SAVE_UI, (game, json.dumps(state)), durable)

    def load_ui(self, game: int) -> JsonObject | None:
        r = self.db.execute("SELECT state FROM ui WHERE game = ?", (game,)).fetchone()
        return _object(r[0]) if r else None

    # -- settings --------------------------------------------------------------------------------------------
    def get_meta(self, key: str) -> Json:
        """A value the box keeps for itself (JSON; None when there is none): a remote game's pinned link."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def set_meta(self, key: str, value: Json) -> None:
        """Keep ``value`` (JSON) under ``key``, committed at once; None forgets it."""
        if value is None:
            self._write("DELETE FROM meta WHERE key = ?", (key,))
        else:
            self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def settings(self) -> dict[str, Json]:
        out: dict[str, Json] = {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM settings")}
        return out

    def set_setting(self, key: str, value: Json) -> None:
        self._quiet("setting", "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    # -- campaign sheets -------------------------------------------------------------------------------------
    def sheets(self) -> list[tuple[int, str]]:
        return [(r[0], r[1]) for r in self.db.execute("SELECT id, name FROM sheets ORDER BY id")]

    def new_sheet(self, name: str) -> int:
        cur = self._write("INSERT INTO sheets (name, created) VALUES (?, ?)", (name, self._now()))
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def record_mission(self, sheet: int, city: str, won: bool, game: int | None) -> None:
        self._write("INSERT INTO mission_results (sheet, city, won, game, at) VALUES (?, ?, ?, ?, ?)",
                    (sheet, city, int(won), game, self._now()))

    def mission_history(self, sheet: int) -> dict[str, tuple[int, int]]:
        """city -> (wins, losses) on this sheet."""
        out: dict[str, tuple[int, int]] = {}
        for city, won, n in self.db.execute(
                "SELECT city, won, COUNT(*) FROM mission_results WHERE sheet = ? GROUP BY city, won",
                (sheet,)):
            wins, losses = out.get(city, (0, 0))
            out[city] = (wins + n, losses) if won else (wins, losses + n)
        return out

    def mission_log(self, sheet: int) -> list[tuple[str, bool]]:
        """The sheet's results in order: (city, won)."""
        rows = self.db.execute("SELECT city, won FROM mission_results WHERE sheet = ? ORDER BY rowid",
                               (sheet,))
        return [(r[0], bool(r[1])) for r in rows]

    def sheet_name(self, sheet: int) -> str:
        r = self.db.execute("SELECT name FROM sheets WHERE id = ?", (sheet,)).fetchone()
        return str(r[0]) if r else ""

    def ticked(self, sheet: int) -> set[str]:
        return {c for c, (w, _) in self.mission_history(sheet).items() if w > 0}

    # -- decks -----------------------------------------------------------------------------------------------
    def deck_used(self, pack: str) -> list[str]:
        r = self.db.execute("SELECT used FROM decks WHERE pack = ?", (pack,)).fetchone()
        return list(json.loads(r[0])) if r else []

    def set_deck_used(self, pack: str, used: list[str]) -> None:
        self._quiet("deck", "INSERT OR REPLACE INTO decks (pack, used) VALUES (?, ?)", (pack, json.dumps(used)))

    # -- statistics ------------------------------------------------------------------------------------------
    def statistics(self) -> dict[str, dict[str, int | None]]:
        """Per mode: games, wins, best score (None: none scored), current and best winning streak (finished games
        only)."""
        stats: dict[str, _Tally] = {}
        rows: Iterable[tuple[str, str, str | None, int | None]] = self.db.execute(
            "SELECT kind, mode, result, score FROM games WHERE status = 'over' ORDER BY id")
        for kind, mode, result, score in rows:
            stats.setdefault(kind or mode, _Tally()).add(result == "won", score)
        return {name: tally.as_dict() for name, tally in stats.items()}

    def reset_statistics(self) -> None:
        """Forget finished games (campaign sheets keep their ticks), in one transaction."""
        finished = "SELECT id FROM games WHERE status != 'playing'"
        self._write(f"DELETE FROM actions WHERE game IN ({finished})", (),
                    [(f"DELETE FROM ui WHERE game IN ({finished})", ()),
                     ("DELETE FROM games WHERE status != 'playing'", ())])


@dataclass
class _Tally:
    """One mode's statistics while they are counted."""

    games: int = 0
    wins: int = 0
    best: int | None = None
    streak: int = 0
    best_streak: int = 0

    def add(self, won: bool, score: int | None) -> None:
        self.games += 1
        if won:
            self.wins += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
        if score is not None and (self.best is None or score > self.best):
            self.best = score

    def as_dict(self) -> dict[str, int | None]:
        return {"games": self.games, "wins": self.wins, "best": self.best, "streak": self.streak,
                "best_streak": self.best_streak}


def _object(text: str) -> JsonObject:
    """A JSON object column (a record, an action, screen state, options); anything else reads as empty."""
    value: Json = json.loads(text)
    return value if isinstance(value, dict) else {}


def _describe(exc: sqlite3.Error) -> str:
    """A storage error as a short key the box words on its screens: full, readonly, io."""
    text = str(exc).lower()
    if "full" in text:
        return "full"
    if "readonly" in text or "read-only" in text or "read only" in text:
        return "readonly"
    return "io"
