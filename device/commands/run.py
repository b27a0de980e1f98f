"""``duetbox run``: start the box, or play a script on the mock backend (the scripted-run contract).

    duetbox run --hardware emulator|mock|pi [--script FILE --snapshots DIR] [--data-dir D] [--seed N]
                [--config F] [--pace MS] [--start RECORD] [--size WxH]

Script lines (one a line, ``#`` starts a comment):
  press A.ok        press and release at once (a tap); buttons: up down left right ok stop per seat, and menu
  down A.stop       press and keep held (released by ``release``)
  release [A.stop]  release that button (without a name: every button held by ``down``)
  hold A.ok 700     press, let 700 ms pass on the fake clock, release
  touch 12          touch card 12 of the shared grid
  type A fleuve     text from a USB keyboard (``\\n`` = Enter, ``\\b`` = backspace)
  wait 250          advance the fake clock 250 ms
  snapshot NAME     write NAME-shared.png, NAME-oled-A.png, NAME-oled-B.png, NAME-ring.json (--snapshots)
Exit 0 at the end of the script, 2 on a bad script line (one line naming it) or bad arguments.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypedDict, TypeVar

from PIL import Image

from common.jsonvalue import Json
from common.userfiles import RECORD_LIMIT, SCRIPT_LIMIT, UnreadableFile, os_reason, read_json, read_text
from engine.board import DUET as DUET_BOARD
from engine.seats import Seat, parse_seat
from hardware.base import SEAT_BUTTONS, SEATS

if TYPE_CHECKING:  # pragma: no cover - typing only (this command imports the app when it runs)
    from device.app import App
    from device.services import audio
    from device.services.notify import Notifier
    from device.storage import Storage
    from hardware.box import Box
    from hardware.config import HardwareConfig
    from hardware.mock import MockBox

log = logging.getLogger("duetbox.run")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: Seconds the pi backend waits for its device nodes at start (they can appear a little after boot).
DEVICE_WAIT = 60


#: What a held thing is: a button's name or a card.
_W = TypeVar("_W", str, int)


class _AppOptions(TypedDict):
    """The keyword arguments ``duetbox run`` gives the app (``device.app.App``)."""

    seed: int | None
    notifier: Notifier | None
    sound: audio.SoundPlayer | None
    speech: audio.Speaker | None
    power: Callable[[str], None] | None
    strict: bool


class UsageError(Exception):
    """Bad arguments or input: one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="duetbox run", add_help=True,
                description="start the box: the game on the shared display, the OLEDs and the ring")
    p.add_argument("--hardware", choices=("emulator", "mock", "pi"), default="emulator",
                   help="emulator: a window on this computer; mock: no window (scripts, tests); pi: the real box")
    p.add_argument("--script",
                   help="play a scripted run from this file (the language of docs/scripts/*.txt), then exit")
    p.add_argument("--snapshots", help="directory where a script's `snapshot NAME` lines save the screens as PNG")
    p.add_argument("--data-dir",
                   help="where games, statistics and settings live (default: $DUETBOX_DATA_DIR, ~/.local/share)")
    p.add_argument("--seed", type=_bounded(0, 2**63 - 1, "--seed"),
                   help="seed of the deals, so a run can be repeated")
    p.add_argument("--config",
                   help="hardware configuration TOML (default: $DUETBOX_CONFIG, /etc/duetbox/config.toml)")
    p.add_argument("--pace", type=_bounded(0, 10_000, "--pace (milliseconds)"), default=0,
                   help="milliseconds to wait between a script's steps (0: as fast as possible)")
    p.add_argument("--start", help="start from this game record (JSON) instead of the attract screen")
    p.add_argument("--size", help="shared display size WIDTHxHEIGHT for the emulator and mock, e.g. 800x480")
    p.add_argument("--remote", choices=("host", "join"),
                   help="play one Duet with a box in another home over MQTT (docs/remote.md)")
    p.add_argument("--code", help="with --remote join: the host's 6-letter code (else typed on the box)")
    p.add_argument("--log-level", default="WARNING", help="DEBUG, INFO, WARNING (default) or ERROR")
    return p


def _bounded(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (a huge or negative figure is one line)."""

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not digits.isdigit() or len(digits) > 30 or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{what} takes a whole number from {low} to {high}, not {text!r}")
        return int(text)

    return parse


#: A snapshot's name: letters, digits, dot, dash, underscore (it becomes file names).
_SNAPSHOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@dataclass(frozen=True)
class Op:
    """One script line: its number, its verb and its arguments as parsed (a button, a card, milliseconds, a
    seat or None, text, a snapshot's name)."""

    line: int
    verb: str
    args: tuple[str | int | None, ...]

    def text(self, i: int = 0) -> str:
        value = self.args[i]
        assert isinstance(value, str), self
        return value

    def number(self, i: int = 0) -> int:
        value = self.args[i]
        assert isinstance(value, int), self
        return value

    def seat(self, i: int = 0) -> Seat | None:
        value = self.args[i]
        return None if value is None else parse_seat(value)


def _button(name: str) -> str:
    if name == "menu":
        return name
    seat, _, button = name.partition(".")
    if seat not in SEATS or button not in SEAT_BUTTONS:
        raise ValueError(f"unknown button {name!r} (A.ok, B.left, menu, ...)")
    return name


#: The longest ``wait`` or hold a script may ask for: a day of the fake clock, in ms.
MAX_MS = 86_400_000
#: Loop steps one ``wait`` or hold may run at its deadlines (the docs scripts need at most 124); past them the
#: clock jumps to the end, so that a long wait on an animated screen stays a matter of seconds.
MAX_STEPS = 500


def _ms(text: str) -> int:
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{text[:40]!r} is not a whole number of milliseconds")
    if text.startswith("-"):
        raise ValueError("a time cannot be negative")
    if len(text) > len(str(MAX_MS)) or int(text) > MAX_MS:
        shown = text if len(text) <= 20 else f"{text[:20]}... ({len(text)} digits)"
        raise ValueError(f"{shown} ms is more than a day ({MAX_MS} ms), the longest a script may wait")
    return int(text)


def parse_script(text: str, name: str = "script") -> list[Op]:
    """Every line of a script as an Op; UsageError naming the first bad line."""
    ops: list[Op] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            ops.append(_parse_line(number, line))
        except ValueError as exc:
            raise UsageError(f"{name}:{number}: {exc}") from None
    return ops


def _parse_line(number: int, line: str) -> Op:
    """One script line as an Op; ValueError saying what is wrong with it."""
    verb, _, rest = line.partition(" ")
    words = rest.split()
    if verb in ("press", "down") and len(words) == 1:
        return Op(number, verb, (_button(words[0]),))
    if verb == "release" and len(words) <= 1:
        return Op(number, verb, tuple(_button(w) for w in words))
    if verb == "hold" and len(words) == 2:
        return Op(number, verb, (_button(words[0]), _ms(words[1])))
    if verb == "touch" and len(words) in (1, 2):  # "touch 7" a tap, "touch 7 700" a finger held 0.7 s
        card = int(words[0]) if words[0].isdigit() else -1
        if not DUET_BOARD.has(card):
            raise ValueError(f"{words[0]!r} is not a card number 0..{DUET_BOARD.cards - 1}")
        return Op(number, verb, (card,) + tuple(_ms(w) for w in words[1:]))
    if verb == "type" and len(words) >= 2 and words[0] in (*SEATS, "-"):
        text_part = rest.strip()[2:].replace("\\n", "\n").replace("\\b", "\b")
        return Op(number, verb, (None if words[0] == "-" else words[0], text_part))
    if verb == "wait" and len(words) == 1:
        return Op(number, verb, (_ms(words[0]),))
    if verb == "snapshot" and len(words) == 1:
        if not _SNAPSHOT_NAME.fullmatch(words[0]):
            raise ValueError(f"snapshot name {words[0][:40]!r}: use 1-100 letters, digits, '.', '-', '_'")
        return Op(number, verb, (words[0],))
    raise ValueError(f"cannot read {line!r}")


def _size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or int(w) < 320 or int(h) < 240:
        raise UsageError(f"--size {text[:40]!r}: use WIDTHxHEIGHT, at least 320x240")
    if int(w) > MAX_SIZE[0] or int(h) > MAX_SIZE[1]:
        raise UsageError(f"--size {text[:40]!r}: at most {MAX_SIZE[0]}x{MAX_SIZE[1]} (an 8K screen)")
    return int(w), int(h)


#: The largest shared display ``--size`` takes (8K UHD): a bigger one is a typo, and would not fit in memory.
MAX_SIZE = (7680, 4320)


def desktop_language() -> str | None:
    """The desktop's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, read by Babel) when the box speaks it."""
    from babel import default_locale

    from device.i18n import LANGUAGES

    found = default_locale(("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")) or ""
    if found.endswith("_POSIX"):  # the C locale says no language at all: the box's own default stays
        return None
    code = found.split("_")[0].lower()
    return code if code in LANGUAGES else None


def first_language(storage: Storage) -> None:
    """The emulator's first start: the interface (and its word pack) in the desktop's language, where the box has
    it; a language already chosen on this data directory is kept."""
    if "language" in storage.settings():
        return
    language = desktop_language()
    if language is None:
        return
    from device.packs import following_language

    storage.set_setting("language", language)
    storage.set_setting("pack", following_language("fr", "fr", language))


def snapshot(app: App, directory: Path, name: str) -> None:
    """Write what every output shows now (files are written whole: a reader never sees half a picture)."""
    directory.mkdir(parents=True, exist_ok=True)
    box = app.box

    def save_png(image: Image.Image, target: Path) -> None:
        tmp = target.with_name(target.name + ".tmp")
        image.save(tmp, format="PNG")
        os.replace(tmp, target)

    display = box.display
    if display is None:
        raise OSError("the box has no shared display")
    if hasattr(display, "snapshot"):
        shared = display.snapshot()
    else:
        import pygame

        shared = Image.frombytes("RGB", display.size, pygame.image.tobytes(display.surface, "RGB"))
    save_png(shared, directory / f"{name}-shared.png")
    for seat in SEATS:
        image = getattr(box.oleds[seat], "image", None) or Image.new("1", (128, 64), 0)
        save_png(image.convert("1"), directory / f"{name}-oled-{seat}.png")
    ring = {"t": round(app.clock.now(), 3), "count": box.ring.count,
            "pixels": [list(p) for p in app.outputs.last_ring]}
    target = directory / f"{name}-ring.json"
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(ring) + "\n")
    os.replace(tmp, target)


def run_script(app: App, ops: list[Op], snapshots: Path | None, pace_ms: int) -> None:
    from hardware.mock import MockBox

    box = app.box
    if not isinstance(box, MockBox):
        raise UsageError("--script needs --hardware mock (the fake clock)")
    held: list[str] = []
    for op in ops:
        if not app.running:
            break
        _run_op(app, box, op, held, snapshots)
        app.step(0)
        if pace_ms:
            time.sleep(pace_ms / 1000)


def _run_op(app: App, box: MockBox, op: Op, held: list[str], snapshots: Path | None) -> None:
    """Do one script line on the mock box (``held``: the buttons a ``down`` left pressed)."""
    if op.verb == "press":
        box.press(op.text())
        box.release(op.text())
    elif op.verb == "down":
        box.press(op.text())
        held.append(op.text())
    elif op.verb == "release":
        _release(box, [op.text(i) for i in range(len(op.args))] or list(held), held)
    elif op.verb == "hold":
        _hold(app, box, box.press, box.release, op.text(), op.number(1))
    elif op.verb == "touch" and len(op.args) == 2:  # the finger stays down, the hold runs on the clock
        _hold(app, box, box.touch_down, box.touch_up, op.number(), op.number(1))
    elif op.verb == "touch":
        box.touch(op.number())
    elif op.verb == "type":
        box.type_text(op.seat(), op.text(1))
    elif op.verb == "wait":
        _advance(app, box, op.number() / 1000)
    elif op.verb == "snapshot":
        app.step(0)
        try:
            snapshot(app, snapshots or Path("."), op.text())
        except OSError as exc:
            raise UsageError(f"line {op.line}: cannot write the snapshot {op.text()}: {os_reason(exc)}") from None


def _release(box: MockBox, names: list[str], held: list[str]) -> None:
    """Release ``names`` (the script's ``release``), forgetting those held by ``down``."""
    for n in names:
        box.release(n)
        if n in held:
            held.remove(n)


def _hold(app: App, box: MockBox, down: Callable[[_W], None], up: Callable[[_W], None], what: _W, ms: int) -> None:
    """A button or a finger held ``ms`` milliseconds: the press is seen at its own time, then the hold runs on
    the clock."""
    down(what)
    app.step(0)
    box.advance(ms / 1000)
    app.step(0)
    up(what)


def _advance(app: App, box: MockBox, seconds: float) -> None:
    """Move the fake clock by ``seconds``, stopping at every deadline on the way so that each timer runs at its
    own time (a hold fires, the box's partner walks its cursor, a notice ends), as on the real box."""
    end = app.clock.now() + seconds
    for _ in range(MAX_STEPS):  # a bound: a screen that keeps asking for "now" must not hang a script
        now = app.clock.now()
        deadline = app.deadline()
        if deadline is None or deadline >= end or not app.running:
            break
        box.advance(max(0.0, deadline - now))
        app.step(0)
    box.advance(max(0.0, end - app.clock.now()))


def main(argv: list[str]) -> int:
    try:
        return _main(argv)
    except UsageError as exc:
        print(f"duetbox run: {exc}", file=sys.stderr)
        return 2


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=getattr(logging, str(args.log_level).upper(), logging.WARNING),
                        format="%(name)s: %(message)s")
    ops = _script(args)
    record = _record(args)
    size = _size(args.size)
    config = _config(args)

    from device.services.notify import Notifier
    from engine.session import SetupError

    storage = _storage(args)
    notifier = Notifier() if args.hardware != "mock" else None
    if args.hardware == "pi":
        try:
            _wait_for_devices(config, notifier)
        except UsageError:
            storage.close()
            raise
    box = _open(args.hardware, config, size, storage, notifier)
    app = _app(args, config, box, storage, notifier)
    if ops is None:
        # a SIGTERM during start-up (systemd stopping a box still drawing its first frame) is noted now and
        # ends the loop cleanly as soon as it runs, instead of killing the process mid-start
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, app._on_signal)
    try:
        app.start(record)
    except SetupError as exc:
        app.shutdown()
        raise UsageError(f"--start {args.start}: {exc}") from None
    if args.remote:
        _start_remote(app, args.remote, args.code)
    if ops is None:
        return app.run()
    try:
        run_script(app, ops, Path(args.snapshots) if args.snapshots else None, args.pace)
    finally:
        app.shutdown()
    return 0


def _storage(args: argparse.Namespace) -> Storage:
    """The box's storage (``--data-dir``, else the data directory; one per role for two boxes on one desktop)."""
    from device.storage import Storage, StorageError, data_dir

    directory = data_dir(args.data_dir)
    if args.remote and not args.data_dir:  # two boxes on one desktop: one data directory each
        directory = directory / f"remote-{args.remote}"
    try:
        return Storage(directory)
    except StorageError as exc:
        raise UsageError(str(exc)) from None


def _app(args: argparse.Namespace, config: HardwareConfig, box: Box, storage: Storage,
         notifier: Notifier | None) -> App:
    """The box app: with remote play when asked for (``--remote``) or when the configuration names a broker
    (a ``[remote]`` section); else a box that plays locally only."""
    from device.app import App

    options: _AppOptions = {"seed": args.seed, "notifier": notifier, "sound": _sound(args.hardware),
                               "speech": _speech(args.hardware), "power": _power if args.hardware == "pi" else None,
                               "strict": args.hardware == "mock"}
    if args.remote or config.remote.enabled:  # remote play (its TLS, MQTT and screens) only on a box that has it
        from device.remote.app import remote_app
        from device.remote.transport import BrokerConfig

        return remote_app(box, storage, broker=BrokerConfig.from_config(config.remote), **options)
    return App(box, storage, **options)


def _record(args: argparse.Namespace) -> Json:
    """The --start record as read (None without one); checked when the game starts from it."""
    if not args.start:
        return None
    try:
        record: Json = read_json(args.start, RECORD_LIMIT)
    except UnreadableFile as exc:
        raise UsageError(f"the record: {exc}") from None
    return record


def _script(args: argparse.Namespace) -> list[Op] | None:
    """The --script's operations (None without one)."""
    if not args.script:
        return None
    try:
        text = read_text(args.script, SCRIPT_LIMIT)
    except UnreadableFile as exc:
        raise UsageError(f"the script: {exc}") from None
    ops = parse_script(text, args.script)
    if args.hardware != "mock":
        raise UsageError("--script needs --hardware mock (the fake clock)")
    return ops


def _config(args: argparse.Namespace) -> HardwareConfig:
    """--config, else $DUETBOX_CONFIG or /etc/duetbox/config.toml when present, else the bundled default;
    scripted mock runs stay reproducible: only --config changes them."""
    from hardware.config import ConfigError, find_config, load_config

    config_path = args.config or (find_config() if args.hardware != "mock" else None)
    try:
        return load_config(config_path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot read the configuration {config_path}: {exc}") from None


def _open(hardware: str, config: HardwareConfig, size: tuple[int, int] | None, storage: Storage,
          notifier: Notifier | None) -> Box:
    """The box; on the pi it degrades instead of dying (see device.degraded and hardware.degrade). UsageError
    (the storage closed) when it cannot open."""
    from hardware.factory import open_box

    if hardware == "emulator":
        first_language(storage)  # before the first frame: the window opens in the desktop's language
    try:
        if hardware == "pi":
            from device.degraded import DisplayWaitMessages
            from device.i18n import Translator

            waiter = DisplayWaitMessages(Translator(str(storage.settings().get("language", "fr"))), notifier)
            return open_box("pi", config, display_size=size, degrade=True, display_wait=waiter)
        return open_box(hardware, config, display_size=size)
    except Exception as exc:  # noqa: BLE001 - a missing device is one line, never a traceback
        storage.close()
        raise UsageError(f"cannot open the {hardware} hardware: {exc}") from None


def _wait_for_devices(config: HardwareConfig, notifier: Notifier | None) -> None:
    """At boot the display, GPIO, I2C and SPI nodes can appear a little after the service starts: wait for
    the ones this configuration needs, at most DEVICE_WAIT seconds. UsageError naming those still missing."""
    from device.services import notify

    needed = notify.devices_needed(config)
    told: list[str] = []

    def waiting(missing: list[str]) -> None:
        if missing != told:  # say it when the list changes, not four times a second
            told[:] = missing
            text = "waiting for " + ", ".join(missing)
            log.warning("%s (at most %d s)", text, DEVICE_WAIT)
            if notifier is not None:
                notifier.status(text)

    missing = notify.wait_for_devices(needed, timeout=DEVICE_WAIT, on_wait=waiting)
    # no display or no I2C bus is not fatal: the box waits for the display and starts without an OLED
    missing = [m for m in missing if not m.startswith(("/dev/dri/", "/dev/i2c-"))]
    if missing:
        raise UsageError(f"--hardware pi: still missing after {DEVICE_WAIT} s: {', '.join(missing)} "
                         "(see docs/troubleshooting.md)")


def _start_remote(app: App, role: str, code: str | None) -> None:
    """``--remote host``: offer a remote game and print its code; ``--remote join``: join ``--code`` or type it.
    A remote game saved on this box is resumed instead (its pinned session: no new pairing, no code needed)."""
    from device.remote.pairing import BadCode, normalise
    from device.remote.screens import CodeEntryScreen

    play = app.remote
    assert play is not None
    if play.linked:
        print("resuming the saved remote game (no code needed)", flush=True)
        return
    if role == "host":
        code = play.host_game()
        print(f"remote game code: {code}", flush=True)
        return
    if code is None:
        app.switch(CodeEntryScreen(app, play))
        return
    try:
        play.join_game(normalise(code))
    except BadCode as exc:
        app.shutdown()
        raise UsageError(f"--code: {exc}") from None


def _sound(backend: str) -> audio.SoundPlayer | None:
    if backend == "mock":
        return None
    try:
        from device.services.sound import SoundPlayer

        return SoundPlayer()
    except Exception:  # noqa: BLE001 - no sound is never fatal
        return None


def _speech(backend: str) -> audio.Speaker | None:
    if backend == "mock":
        return None
    try:
        from device.services.speech import Speaker

        speaker = Speaker()
        return speaker if speaker.available() else None
    except Exception:  # noqa: BLE001 - no speech is never fatal
        return None


def _power(what: str) -> None:
    import subprocess

    command = ["systemctl", "poweroff" if what == "shutdown" else "reboot"]
    try:
        subprocess.run(command, check=False, timeout=30)
    except OSError as exc:
        log.error("cannot %s: %s", what, exc)
