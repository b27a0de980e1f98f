"""The admin PIN, kept apart from the database (``admin.json`` in the data directory) so that a database reset,
a corrupt file moved aside or an empty database never brings back an old or an empty PIN.

- There is no default PIN: until one is set, the admin's first visit asks for one (or ``duetbox pin set``).
- Stored as a salted scrypt hash (``hashlib.scrypt``, standard library), never in clear.
- Wrong PINs cost time: the first FREE_TRIES are free, then each one doubles a wait (DELAY_BASE seconds, at
  most DELAY_MAX), persisted across restarts. docs/kiosk.md gives the figure a guesser gets.
- A damaged file locks admin (one log line, fixed with ``duetbox pin set`` from a shell): never an open door.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from device.storage import Storage

log = logging.getLogger("duetbox.pin")

FILE_NAME = "admin.json"
LENGTHS = range(4, 9)
FREE_TRIES = 3
DELAY_BASE = 30.0
DELAY_MAX = 3600.0
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def delay_after(failures: int) -> float:
    """Seconds to wait after ``failures`` wrong PINs in a row: 0 for the free tries, then 30 s, 60 s, ... 1 h."""
    if failures < FREE_TRIES:
        return 0.0
    return float(min(DELAY_MAX, DELAY_BASE * 2 ** (failures - FREE_TRIES)))


def tries_within(seconds: float) -> int:
    """How many PINs a guesser can try in ``seconds`` from a fresh start (for the docs)."""
    tries, spent = 0, 0.0
    while True:
        wait = delay_after(tries)
        if spent + wait > seconds:
            return tries
        spent += wait
        tries += 1


def _hash(pin: str, salt: bytes) -> str:
    import hashlib  # here, not at start: OpenSSL's libcrypto is ~3.5 MB of the box's memory

    return hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **_SCRYPT).hex()


@dataclass
class Check:
    """The answer to a PIN: ``ok``, or the seconds to wait before the next try (0 when it may come at once)."""

    ok: bool
    wait: float = 0.0


class PinStore:
    """``admin.json``: {"salt", "hash", "failures", "not_before"} (wall-clock seconds: survives restarts)."""

    def __init__(self, directory: Path | str, *, now: Callable[[], float] = time.time) -> None:
        self.path = Path(directory) / FILE_NAME
        self._now = now
        self.damaged = False
        self._data: dict[str, object] = {}
        self._load()

    def _load(self) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("cannot read %s (%s): admin locked until `duetbox pin set`", self.path, exc.strerror)
            self.damaged = True
            return
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("hash"), str) or \
                    not isinstance(data.get("salt"), str):
                raise ValueError("not a PIN file")
            bytes.fromhex(str(data["salt"]))
        except (ValueError, UnicodeDecodeError) as exc:
            log.error("%s is damaged (%s): admin locked until `duetbox pin set`", self.path, exc)
            self.damaged = True
            return
        self._data = data

    @property
    def is_set(self) -> bool:
        return bool(self._data.get("hash"))

    @property
    def length(self) -> int:
        """The PIN's number of digits (the entry checks when the last one is in)."""
        value = self._data.get("length", 4)
        return value if isinstance(value, int) and value in LENGTHS else 4

    @property
    def failures(self) -> int:
        value = self._data.get("failures", 0)
        return value if isinstance(value, int) else 0

    def wait(self) -> float:
        """Seconds before the next try is taken (0: now)."""
        not_before = self._data.get("not_before", 0.0)
        if not isinstance(not_before, (int, float)):
            return 0.0
        return max(0.0, float(not_before) - self._now())

    def _save(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        data = json.dumps(self._data).encode()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)

    def set(self, pin: str) -> None:
        """Set a new PIN (digits, LENGTHS long). Raises ValueError for a bad one, OSError when it cannot be saved."""
        if not pin.isdigit() or len(pin) not in LENGTHS:
            raise ValueError(f"a PIN is {LENGTHS.start} to {LENGTHS.stop - 1} digits")
        import secrets

        salt = secrets.token_bytes(16)
        self._data = {"salt": salt.hex(), "hash": _hash(pin, salt), "length": len(pin), "failures": 0,
                      "not_before": 0.0}
        self._save()
        self.damaged = False

    def check(self, pin: str) -> Check:
        """Try ``pin``. While a wait runs the try is not even looked at (Check(False, wait))."""
        if self.damaged or not self.is_set:
            return Check(False, 0.0)
        wait = self.wait()
        if wait > 0:
            return Check(False, wait)
        import hmac

        salt = bytes.fromhex(str(self._data["salt"]))
        if hmac.compare_digest(_hash(pin, salt), str(self._data["hash"])):
            if self.failures:
                self._data.update(failures=0, not_before=0.0)
                self._persist()
            return Check(True)
        failures = self.failures + 1
        delay = delay_after(failures)
        self._data.update(failures=failures, not_before=self._now() + delay)
        self._persist()
        log.warning("wrong admin PIN (%d in a row): next try in %.0f s", failures, delay)
        return Check(False, delay)

    def _persist(self) -> None:
        try:
            self._save()
        except OSError as exc:  # a full disk must not open the door: the wait holds in memory all the same
            log.error("cannot save the PIN tries (%s)", exc.strerror)

    @classmethod
    def beside(cls, storage: Storage) -> PinStore:
        """The PIN store of ``storage``'s directory (outside the database), with a PIN an older box kept in clear
        in the settings moved into it (and out of the settings)."""
        pins = cls(storage.directory)
        old_pin = storage.settings().get("pin")
        if old_pin is not None:
            pins.migrate(old_pin)
            storage.set_setting("pin", None)
        return pins

    def migrate(self, old: object) -> None:
        """An older box kept its PIN in clear in the settings: hash it here (the default "0000" is not kept)."""
        if self.is_set or self.damaged or not isinstance(old, str) or old == "0000":
            return
        try:
            self.set(old)
            log.info("the admin PIN moved out of the database into %s (hashed)", self.path)
        except (ValueError, OSError) as exc:
            log.error("cannot move the old admin PIN (%s)", exc)
