"""Hardware configuration: a TOML file read into frozen dataclasses.

The bundled default (``hardware/data/default.toml``) is the base; a user file only names what it changes.
Every problem in a file is collected, so a builder sees them all at once: unknown keys, wrong types, values
out of range, a pin used twice, a pin that belongs to the I2C or SPI bus.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from common.userfiles import CONFIG_LIMIT, UnreadableFile, loads_toml, read_text
from hardware.base import SEAT_BUTTONS, SEATS, Button, Seat, SeatButton

#: Where the box keeps its configuration; ``DUETBOX_CONFIG`` overrides it.
SYSTEM_CONFIG = Path("/etc/duetbox/config.toml")

OLED_MODELS: tuple[str, ...] = ("ssd1306", "sh1106")
RING_SIZES: tuple[int, ...] = (12, 16, 24)
RING_DRIVERS: tuple[str, ...] = ("spi", "leds")
#: One WS2812B at full white and brightness 1.0 (mA): a 16-LED ring at 1.0 is about 1 A.
RING_LED_MA = 60

#: BCM GPIOs that a bus owns once it is enabled, and why.
RESERVED_PINS: dict[int, str] = {
    0: "the HAT EEPROM bus (ID_SD)",
    1: "the HAT EEPROM bus (ID_SC)",
    2: "I2C SDA (the OLEDs)",
    3: "I2C SCL (the OLEDs)",
    7: "SPI0 CE1 once SPI is enabled",
    8: "SPI0 CE0 once SPI is enabled",
    9: "SPI0 MISO once SPI is enabled",
    10: "SPI0 MOSI (the LED ring)",
    11: "SPI0 SCLK once SPI is enabled",
    18: "I2S BCLK (the amplifier)",
    19: "I2S LRCLK (the amplifier)",
    20: "I2S DIN, claimed with the I2S pins once the amplifier's overlay is loaded",
    21: "I2S DOUT (the amplifier)",
}
#: The I2S amplifier's pins: free for buttons only with sound.amplifier = false (a box without one).
I2S_PINS = (18, 19, 20, 21)
MAX_GPIO = 27


class ConfigError(ValueError):
    """A configuration file is unreadable or invalid; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str], source: str = "configuration") -> None:
        self.problems = list(problems)
        self.source = source
        first = problems[0] if problems else "invalid"
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first}{more}")


@dataclass(frozen=True)
class SeatPins:
    up: int
    down: int
    left: int
    right: int
    ok: int
    stop: int
    ok_led: int | None = None

    def button_pins(self) -> dict[SeatButton, int]:
        return {name: getattr(self, name) for name in SEAT_BUTTONS}


@dataclass(frozen=True)
class ButtonsConfig:
    A: SeatPins
    B: SeatPins
    menu: int
    debounce_ms: float = 20.0
    ok_led_pwm: bool = False

    def seat(self, seat: Seat) -> SeatPins:
        return self.A if seat == "A" else self.B

    def all_inputs(self) -> dict[tuple[Seat | None, Button], int]:
        """Every input pin: (seat, button) -> GPIO, with MENU as (None, "menu")."""
        pins: dict[tuple[Seat | None, Button], int] = {}
        for seat in SEATS:
            for name, pin in self.seat(seat).button_pins().items():
                pins[(seat, name)] = pin
        pins[(None, "menu")] = self.menu
        return pins


@dataclass(frozen=True)
class OledConfig:
    model: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
    rotation: int = 0


@dataclass(frozen=True)
class RingConfig:
    count: int = 16
    driver: str = "spi"
    device: str = "/dev/spidev0.0"
    brightness: float = 0.25
    gamma: float = 2.2
    first_led: int = 0
    clockwise: bool = True


@dataclass(frozen=True)
class PowerConfig:
    """[power]: the 5 V supply and what the rest of the box takes from it at its peak (docs/hardware.md)."""

    supply_ma: int = 3000
    others_ma: int = 2400

    def max_brightness(self, count: int) -> float:
        """The highest ring.brightness the supply leaves room for with ``count`` LEDs."""
        return max(0.0, min(1.0, (self.supply_ma - self.others_ma) / (count * RING_LED_MA)))


@dataclass(frozen=True)
class DisplayConfig:
    width: int = 0
    height: int = 0
    fullscreen: bool = True

    @property
    def size(self) -> tuple[int, int] | None:
        """The configured size, or None for the screen's own mode."""
        return (self.width, self.height) if self.width and self.height else None


@dataclass(frozen=True)
class RemoteConfig:
    """[remote]: the MQTT broker for remote play (device/remote/, docs/remote.md)."""

    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: str = ""
    username: str = ""
    password_file: str = ""
    #: the configuration file has a [remote] section: the box offers remote play (``duetbox run``)
    enabled: bool = False


@dataclass(frozen=True)
class HardwareConfig:
    buttons: ButtonsConfig
    oleds: Mapping[Seat, OledConfig] = field(default_factory=dict)
    ring: RingConfig = field(default_factory=RingConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    power: PowerConfig = field(default_factory=PowerConfig)


# ---------------------------------------------------------------- schema

# A schema leaf is a (kind, required) pair; kinds: "int", "number", "bool", "str", "pin", "pin?".
_SEAT_SCHEMA = {name: "pin" for name in SEAT_BUTTONS} | {"ok_led": "pin?"}
_OLED_SCHEMA = {"model": "str", "port": "int", "address": "int", "rotation": "int"}
_SCHEMA: dict[str, Any] = {
    "buttons": {
        "debounce_ms": "number", "menu": "pin", "ok_led_pwm": "bool", "A": _SEAT_SCHEMA, "B": _SEAT_SCHEMA,
    },
    "oled": {"A": _OLED_SCHEMA, "B": _OLED_SCHEMA},
    "ring": {
        "count": "int", "driver": "str", "device": "str", "brightness": "number", "gamma": "number",
        "first_led": "int", "clockwise": "bool",
    },
    "display": {"width": "int", "height": "int", "fullscreen": "bool"},
    "power": {"supply_ma": "int", "others_ma": "int"},
    "sound": {"amplifier": "bool"},
    "remote": {"host": "str", "port": "int", "tls": "bool", "ca_file": "str", "username": "str",
               "password_file": "str"},
}

_TYPE_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", dict: "a table",
               list: "an array"}


def _type_name(value: object) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _check_shape(
    data: Mapping[str, Any], schema: Mapping[str, Any], prefix: str, problems: list[str]
) -> dict[str, Any]:
    """Report unknown keys and wrong types; return the part of ``data`` that is well-formed."""
    clean: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if key not in schema:
            known = ", ".join(schema)
            problems.append(f"{path}: unknown key (known here: {known})")
            continue
        kind = schema[key]
        if isinstance(kind, dict):
            if not isinstance(value, dict):
                problems.append(f"{path}: expected a table, got {_type_name(value)} {value!r}")
            else:
                clean[key] = _check_shape(value, kind, path + ".", problems)
            continue
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "pin": isinstance(value, int) and not isinstance(value, bool),
            "pin?": (isinstance(value, int) and not isinstance(value, bool)) or value is False,
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
        }[kind]
        if not ok:
            wanted = {"int": "an integer", "pin": "a GPIO number", "pin?": "a GPIO number or false",
                      "number": "a number", "bool": "true or false", "str": "a string"}[kind]
            problems.append(f"{path}: expected {wanted}, got {_type_name(value)} {value!r}")
        else:
            clean[key] = value
    return clean


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _check_values(data: Mapping[str, Any], problems: list[str]) -> None:
    _check_buttons(data["buttons"], problems, amplifier=bool(data["sound"]["amplifier"]))
    _check_oleds(data["oled"], problems)
    _check_ring(data["ring"], problems)
    _check_power(data["ring"], data["power"], problems)
    _check_display(data["display"], problems)
    if "remote" in data:  # no [remote]: no remote play, nothing to check
        _check_remote(data["remote"], problems)


def _check_buttons(buttons: Mapping[str, Any], problems: list[str], amplifier: bool = True) -> None:
    owners: dict[int, list[str]] = {}

    def pin(path: str, value: int | None) -> None:
        if value is None or value is False:
            return
        if not 0 <= value <= MAX_GPIO:
            problems.append(f"{path}: GPIO{value} does not exist (BCM numbers 0..{MAX_GPIO})")
            return
        if value in RESERVED_PINS and (amplifier or value not in I2S_PINS):
            problems.append(f"{path}: GPIO{value} clashes with {RESERVED_PINS[value]}; pick another pin")
        owners.setdefault(value, []).append(path)

    pin("buttons.menu", buttons["menu"])
    for seat in SEATS:
        for name in (*SEAT_BUTTONS, "ok_led"):
            pin(f"buttons.{seat}.{name}", buttons[seat].get(name))
    for gpio, paths in owners.items():
        if len(paths) > 1:
            problems.append(f"GPIO{gpio} is used twice: {', '.join(paths)}")

    if not 0 <= buttons["debounce_ms"] <= 500:
        problems.append(f"buttons.debounce_ms: {buttons['debounce_ms']} is out of range 0..500")


def _check_oleds(oled: Mapping[str, Any], problems: list[str]) -> None:
    places: dict[tuple[int, int], list[str]] = {}
    for seat in SEATS:
        o = oled[seat]
        if o["model"] not in OLED_MODELS:
            problems.append(f"oled.{seat}.model: {o['model']!r} is not one of {', '.join(OLED_MODELS)}")
        if not 0 <= o["port"] <= 31:
            problems.append(f"oled.{seat}.port: {o['port']} is not an I2C bus number (0..31)")
        if not 0x03 <= o["address"] <= 0x77:
            problems.append(f"oled.{seat}.address: {o['address']:#x} is not a 7-bit I2C address")
        if o["rotation"] not in (0, 1, 2, 3):
            problems.append(f"oled.{seat}.rotation: {o['rotation']} is not 0, 1, 2 or 3 (quarter turns)")
        places.setdefault((o["port"], o["address"]), []).append(seat)
    for (port, address), seats in places.items():
        if len(seats) > 1:
            problems.append(
                f"oled.A and oled.B both use address {address:#x} on bus {port}: move one module's address "
                "jumper (0x3D) or put it on a second bus"
            )


def _check_ring(ring: Mapping[str, Any], problems: list[str]) -> None:
    if ring["count"] not in RING_SIZES:
        problems.append(f"ring.count: {ring['count']} LEDs is not a supported ring (12, 16 or 24)")
    if ring["driver"] not in RING_DRIVERS:
        problems.append(f"ring.driver: {ring['driver']!r} is not one of {', '.join(RING_DRIVERS)}")
    if not 0.0 <= ring["brightness"] <= 1.0:
        problems.append(f"ring.brightness: {ring['brightness']} is out of range 0..1")
    if not 1.0 <= ring["gamma"] <= 3.0:
        problems.append(f"ring.gamma: {ring['gamma']} is out of range 1..3")
    if not 0 <= ring["first_led"] < max(ring["count"], 1):
        last = ring["count"] - 1
        problems.append(f"ring.first_led: {ring['first_led']} is not an LED of the ring (0..{last})")


def _check_power(ring: Mapping[str, Any], power: Mapping[str, Any], problems: list[str]) -> None:
    supply, others = power["supply_ma"], power["others_ma"]
    if not 500 <= supply <= 10000:
        problems.append(f"power.supply_ma: {supply} mA is not a 5 V supply this box can have (500..10000)")
        return
    if not 0 <= others < supply:
        problems.append(f"power.others_ma: {others} mA leaves nothing of the {supply} mA supply for the ring")
        return
    if ring["count"] not in RING_SIZES or not 0.0 <= ring["brightness"] <= 1.0:
        return  # reported by _check_ring
    need = ring["brightness"] * ring["count"] * RING_LED_MA
    if need > supply - others:
        cap = PowerConfig(supply, others).max_brightness(ring["count"])
        problems.append(
            f"ring.brightness: {ring['brightness']:g} x {ring['count']} LEDs x {RING_LED_MA} mA = {need:.0f} mA, more "
            f"than the {supply - others} mA the supply leaves the ring (power.supply_ma {supply} - power.others_ma "
            f"{others}): at most {int(cap * 100) / 100:.2f}, or a bigger supply (docs/hardware.md, Power budget)")


def _check_display(display: Mapping[str, Any], problems: list[str]) -> None:
    w, h = display["width"], display["height"]
    if (w == 0) != (h == 0):
        problems.append("display: set both width and height, or both to 0 for the screen's own mode")
    elif w and not (800 <= w <= 1920 and 480 <= h <= 1080):
        problems.append(f"display: {w}x{h} is outside the supported 800x480..1920x1080")


def _check_remote(remote: Mapping[str, Any], problems: list[str]) -> None:
    host = remote.get("host", "")
    if not host or any(ch.isspace() for ch in host) or "/" in host:
        problems.append(f"remote.host: {host!r} is not a host name or address (e.g. \"broker.example.org\")")
    if not 1 <= remote.get("port", 1883) <= 65535:
        problems.append(f"remote.port: {remote.get('port')} is not a TCP port (1..65535)")
    for name in ("ca_file", "password_file"):
        path = remote.get(name, "")
        if path and not Path(path).is_file():
            problems.append(f"remote.{name}: {path} is not a readable file")
    if remote.get("password_file") and not remote.get("username"):
        problems.append("remote.password_file: a password needs remote.username as well")
    if remote.get("ca_file") and not remote.get("tls"):
        problems.append("remote.ca_file: set remote.tls = true to use it")


def _default_data() -> dict[str, Any]:
    text = resources.files("hardware").joinpath("data/default.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _build(data: Mapping[str, Any], *, remote: bool = False) -> HardwareConfig:
    """``remote``: the user's file has a [remote] section (the bundled default's does not count)."""
    b = data["buttons"]
    seats: dict[str, SeatPins] = {}
    for seat in SEATS:
        pins: dict[str, Any] = {k: (None if v is False else v) for k, v in b[seat].items()}
        seats[seat] = SeatPins(**pins)
    buttons = ButtonsConfig(A=seats["A"], B=seats["B"], menu=b["menu"], debounce_ms=float(b["debounce_ms"]),
                            ok_led_pwm=b["ok_led_pwm"])
    oleds: dict[Seat, OledConfig] = {seat: OledConfig(**data["oled"][seat]) for seat in SEATS}
    r = data["ring"]
    ring = RingConfig(**{**r, "brightness": float(r["brightness"]), "gamma": float(r["gamma"])})
    return HardwareConfig(buttons=buttons, oleds=oleds, ring=ring, display=DisplayConfig(**data["display"]),
                          remote=RemoteConfig(**data.get("remote", {}), enabled=remote),
                          power=PowerConfig(**data["power"]))


def problems_in(user: Mapping[str, Any]) -> list[str]:
    """All problems of an already parsed TOML table (merged over the default)."""
    problems: list[str] = []
    clean = _check_shape(user, _SCHEMA, "", problems)
    _check_values(_merge(_default_data(), clean), problems)
    return problems


def parse_config(user: Mapping[str, Any], source: str = "configuration") -> HardwareConfig:
    """Build a config from a parsed TOML table; raises ConfigError with every problem."""
    problems = problems_in(user)
    if problems:
        raise ConfigError(problems, source)
    return _build(_merge(_default_data(), user), remote="remote" in user)


def _read(path: Path) -> dict[str, Any]:
    # bounded, regular files only, nesting and integers bounded (common.userfiles): one line for any bad file
    if not path.exists() and not path.is_symlink():
        raise ConfigError(["file not found"], str(path))
    try:
        text = read_text(path, CONFIG_LIMIT)
    except UnreadableFile as exc:
        raise ConfigError([exc.reason], str(path)) from None
    try:
        return loads_toml(text, str(path))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], str(path)) from None
    except UnreadableFile as exc:
        raise ConfigError([exc.reason], str(path)) from None


def load_config(path: str | os.PathLike[str] | None = None) -> HardwareConfig:
    """Read a configuration file, or the bundled default when ``path`` is None.

    Raises ConfigError (a ValueError) listing every problem found.
    """
    if path is None:
        return _build(_default_data())
    p = Path(path)
    return parse_config(_read(p), str(p))


def check_config_file(path: str | os.PathLike[str]) -> list[str]:
    """One line per problem in the file; an empty list means it is fine."""
    try:
        data = _read(Path(path))
    except ConfigError as exc:
        return exc.problems
    return problems_in(data)


def find_config() -> Path | None:
    """The file to load: ``$DUETBOX_CONFIG``, else /etc/duetbox/config.toml if present, else None."""
    env = os.environ.get("DUETBOX_CONFIG")
    if env:
        return Path(env)
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None
