"""The systemd unit: offline checks with systemd-analyze, and the settings the box depends on."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "duetbox.service"
CHECK_UNITS = ROOT / "systemd" / "check_units.sh"
MAX_EXPOSURE = 2.0

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze not installed (Debian package 'systemd'; .ci/run installs it)",
)


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections -> key -> every value given (unit files may repeat a key)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"setting outside a section: {line!r}"
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return parse_unit(UNIT.read_text())


def one(unit: dict[str, dict[str, list[str]]], section: str, key: str) -> str:
    values = unit[section].get(key)
    assert values, f"[{section}] {key}= missing"
    assert len(values) == 1, f"[{section}] {key}= given {len(values)} times"
    return values[0]


def verifiable_copy(tmp_path: Path, text: str | None = None) -> Path:
    """The unit with ExecStart's program swapped for one that exists here; same file name, same unit name."""
    text = UNIT.read_text() if text is None else text
    stand_in = shutil.which("python3") or "/bin/sh"
    swapped, count = re.subn(r"(?m)^(ExecStart=[-@:+!]*)\S+", lambda m: m.group(1) + stand_in, text)
    assert count == 1
    copy = tmp_path / UNIT.name
    copy.write_text(swapped)
    return copy


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", *args], capture_output=True, text=True, timeout=60, check=False)


def exposure(output: str) -> float:
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", output)
    assert match, f"no overall exposure in:\n{output}"
    return float(match.group(1))


@needs_analyze
def test_unit_verify_prints_nothing(tmp_path: Path) -> None:
    result = analyze("verify", str(verifiable_copy(tmp_path)))
    # verify exits 0 even for an unknown key, so any output at all is a failure.
    assert result.stdout + result.stderr == ""
    assert result.returncode == 0


@needs_analyze
@pytest.mark.parametrize(
    ("good", "bad"),
    [("WatchdogSec=", "WatchdogSecs="), ("Restart=always", "Restart=sometimes")],
)
def test_unit_verify_check_catches_typos(tmp_path: Path, good: str, bad: str) -> None:
    """The check above can fail: a misspelt key or a bad value makes verify talk (while it still exits 0)."""
    text = UNIT.read_text()
    assert good in text
    result = analyze("verify", str(verifiable_copy(tmp_path, text.replace(good, bad, 1))))
    assert result.stdout + result.stderr != ""


@needs_analyze
def test_unit_security_exposure_at_most_two(tmp_path: Path) -> None:
    result = analyze("security", "--offline=yes", str(verifiable_copy(tmp_path)))
    level = exposure(result.stdout + result.stderr)
    assert level <= MAX_EXPOSURE, result.stdout


@needs_analyze
def test_unit_security_rating_drops_without_hardening(tmp_path: Path) -> None:
    """The exposure parser reads a real number: the unit without its hardening block rates far worse."""
    text = UNIT.read_text()
    stripped = text.split("# Hardening.")[0] + "\n[Install]\nWantedBy=multi-user.target\n"
    result = analyze("security", "--offline=yes", str(verifiable_copy(tmp_path, stripped)))
    assert exposure(result.stdout + result.stderr) > 5.0


@needs_analyze
def test_unit_check_units_script_passes_the_unit() -> None:
    result = subprocess.run(
        ["bash", str(CHECK_UNITS)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok   verify duetbox.service" in result.stdout
    assert "ok   security duetbox.service" in result.stdout


@needs_analyze
def test_unit_check_units_script_fails_on_a_typo(tmp_path: Path) -> None:
    broken = tmp_path / UNIT.name
    broken.write_text(UNIT.read_text().replace("NotifyAccess=", "NotifyAcess=", 1))
    result = subprocess.run(
        ["bash", str(CHECK_UNITS), str(broken)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 1
    assert "NotifyAcess" in result.stdout


def test_unit_notify_and_watchdog(unit: dict[str, dict[str, list[str]]]) -> None:
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    watchdog = int(one(unit, "Service", "WatchdogSec"))
    assert 10 <= watchdog <= 120
    # The start timeout must cover the bounded wait for devices plus the first frame.
    assert int(one(unit, "Service", "TimeoutStartSec")) > watchdog


def test_unit_restarts_with_a_start_limit(unit: dict[str, dict[str, list[str]]]) -> None:
    assert one(unit, "Service", "Restart") == "always"
    # The start limit belongs to [Unit]; in [Service] systemd 252 would ignore it with a warning.
    assert int(one(unit, "Unit", "StartLimitBurst")) >= 2
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) > 0


def test_unit_runs_the_app_as_duetbox_with_device_groups(unit: dict[str, dict[str, list[str]]]) -> None:
    assert one(unit, "Service", "User") == "duetbox"
    groups = set(one(unit, "Service", "SupplementaryGroups").split())
    assert {"gpio", "i2c", "spi", "video", "input", "render"} <= groups
    assert one(unit, "Service", "ExecStart") == (
        "/opt/duetbox/venv/bin/duetbox run --hardware pi --config /etc/duetbox/config.toml"
        " --data-dir ${STATE_DIRECTORY}"
    )


def test_unit_exec_start_names_a_real_command() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts.get("duetbox") == "device.cli:main"
    from device.cli import COMMANDS

    assert "run" in COMMANDS


def test_unit_directories_and_writable_working_directory(unit: dict[str, dict[str, list[str]]]) -> None:
    assert one(unit, "Service", "StateDirectory") == "duetbox"
    assert one(unit, "Service", "RuntimeDirectory") == "duetbox"
    # lgpio makes a FIFO in the current directory: it must be the (writable) runtime directory.
    assert one(unit, "Service", "WorkingDirectory") == "/run/duetbox"


def test_unit_hardening_keeps_real_devices(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert service.get("PrivateDevices", ["no"]) == ["no"]
    assert service.get("DevicePolicy", ["auto"]) == ["auto"]
    assert "ProcSubset" not in service
    # ProtectClock implies DeviceAllow=char-rtc: an allow-list shutting out the other devices (older systemd).
    assert "ProtectClock" not in service
    assert "DeviceAllow" not in service
    assert one(unit, "Service", "NoNewPrivileges") == "yes"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""


def test_unit_environment_and_logging(unit: dict[str, dict[str, list[str]]]) -> None:
    env = dict(item.split("=", 1) for line in unit["Service"]["Environment"] for item in line.split())
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert env["PYTHONUNBUFFERED"] == "1"
    assert env["LG_WD"] == one(unit, "Service", "WorkingDirectory")
    assert one(unit, "Service", "SyslogIdentifier") == "duetbox"
    assert one(unit, "Service", "StandardError") == "journal"


def test_unit_takes_over_tty1_and_starts_at_boot(unit: dict[str, dict[str, list[str]]]) -> None:
    assert "getty@tty1.service" in one(unit, "Unit", "Conflicts").split()
    assert "getty@tty1.service" in one(unit, "Unit", "After").split()
    assert one(unit, "Install", "WantedBy") == "multi-user.target"
    # When systemd gives up restarting, the screen goes back to a login prompt.
    assert one(unit, "Unit", "OnFailure") == "getty@tty1.service"
