"""systemd/install.sh's branches: release, userland architecture, board settings, solo on a small board,
--upgrade with its rollback, the install log and the version file.

Dry runs read the release, the board and the memory from files named by environment variables; real runs go
through the stand-in commands of test_installer.Sandbox (nothing on this machine changes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_installer import Sandbox, commands, headings, run_installer

OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux"\nVERSION_CODENAME={codename}\n'
MODELS = {
    "pi3": "Raspberry Pi 3 Model B Plus Rev 1.3",
    "pi4": "Raspberry Pi 4 Model B Rev 1.5",
    "pi400": "Raspberry Pi 400 Rev 1.0",
    "zero2": "Raspberry Pi Zero 2 W Rev 1.0",
    "pi5": "Raspberry Pi 5 Model B Rev 1.0",
}


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


@pytest.fixture
def dry_env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "config.txt").write_text("dtparam=audio=on\n")
    (tmp_path / "cmdline.txt").write_text("console=tty1 root=PARTUUID=x rootwait\n")
    (tmp_path / "os-release").write_text(OS_RELEASE.format(codename="bookworm"))
    (tmp_path / "meminfo").write_text("MemTotal:        3882000 kB\n")
    return {
        "DUETBOX_BOOT_CONFIG": str(tmp_path / "config.txt"),
        "DUETBOX_BOOT_CMDLINE": str(tmp_path / "cmdline.txt"),
        "DUETBOX_CONFIG": str(tmp_path / "etc" / "config.toml"),
        "DUETBOX_OS_RELEASE": str(tmp_path / "os-release"),
        "DUETBOX_DT_MODEL": str(tmp_path / "model"),
        "DUETBOX_MEMINFO": str(tmp_path / "meminfo"),
    }


def with_release(env: dict[str, str], codename: str) -> dict[str, str]:
    Path(env["DUETBOX_OS_RELEASE"]).write_text(OS_RELEASE.format(codename=codename))
    return env


def with_model(env: dict[str, str], model: str) -> dict[str, str]:
    Path(env["DUETBOX_DT_MODEL"]).write_bytes(model.encode() + b"\0")  # the device tree's string ends in NUL
    return env


def plan_of(*args: str, env: dict[str, str]) -> tuple[str, str]:
    result = run_installer("--dry-run", *args, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout, "\n".join(commands(result.stdout))


# -- release ---------------------------------------------------------------------------------------------------

def test_bookworm_installs_wheels_with_the_bookworm_pins(dry_env: dict[str, str]) -> None:
    out, plan = plan_of(env=with_release(dry_env, "bookworm"))
    assert "OS: bookworm" in out and "Python 3.11" in out
    apt = next(c for c in commands(out) if "apt-get install" in c).split()
    assert "libasound2" in apt and "swig" not in apt and "libasound2t64" not in apt
    assert "--constraint /opt/duetbox/src/constraints/bookworm-arm64.txt '/opt/duetbox/src[pi]'" in plan
    assert "PYPI=1" not in plan


def test_trixie_builds_lgpio_from_source_with_swig_and_the_trixie_pins(dry_env: dict[str, str]) -> None:
    out, plan = plan_of(env=with_release(dry_env, "trixie"))
    assert "Python 3.13" in out and "built from its source with swig" in out
    apt = next(c for c in commands(out) if "apt-get install" in c).split()
    assert {"swig", "libasound2t64", "python3-dev", "build-essential"} <= set(apt)
    assert "libasound2" not in apt  # only a virtual package on Trixie
    # lgpio's sdist links the static library it bundles when PYPI=1: no liblgpio-dev (Pi OS repo only) needed
    assert re.search(r"env PYPI=1 /opt/duetbox/venv/bin/python -m pip install --upgrade --constraint "
                     r"/opt/duetbox/src/constraints/trixie-arm64.txt '/opt/duetbox/src\[pi\]'", plan)


def test_the_pinned_constraint_files_exist_and_pin_the_pi_packages() -> None:
    root = Path(__file__).resolve().parents[2] / "constraints"
    for release in ("bookworm", "trixie"):
        pins = dict(
            line.split("==", 1) for line in (root / f"{release}-arm64.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")
        )
        for package in ("lgpio", "spidev", "smbus2", "gpiozero", "pillow", "pygame-ce", "luma-oled", "pip"):
            assert package in pins, (release, package)
        assert pins["pillow"].split(".")[0] == "13"  # pyproject: pillow<14 (luma uses getdata)


@pytest.mark.parametrize(
    ("codename", "reason"),
    [("bullseye", "too old"), ("buster", "too old"), ("forky", "not one this installer knows")],
)
def test_an_unsupported_release_is_refused_in_one_line(sandbox: Sandbox, codename: str, reason: str) -> None:
    sandbox.os_release.write_text(OS_RELEASE.format(codename=codename))
    result = sandbox.run()
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("install.sh: ") and reason in lines[0]
    assert "flash Raspberry Pi OS Lite (64-bit), Trixie or Bookworm" in lines[0]
    assert not any(c.startswith("apt-get") for c in sandbox.calls())


def test_a_dry_run_on_an_unsupported_release_says_a_real_run_would_stop(dry_env: dict[str, str]) -> None:
    out, _ = plan_of(env=with_release(dry_env, "bullseye"))
    assert "a real run stops here: Raspberry Pi OS bullseye is too old" in out


# -- userland architecture ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_a_32_bit_userland_is_refused_even_under_a_64_bit_kernel(sandbox: Sandbox, arch: str) -> None:
    (sandbox.state / "arch").write_text(f"{arch}\n")
    result = sandbox.run()
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"install.sh: this is a 32-bit system ({arch}), which gets no ready-built Pillow or pygame-ce: "
        "flash Raspberry Pi OS Lite (64-bit), Trixie or Bookworm, with Raspberry Pi Imager"
    ]
    assert "dpkg --print-architecture" in sandbox.calls()  # the userland, not uname -m (the kernel)
    assert not any(c.startswith("apt-get") for c in sandbox.calls())


def test_a_pc_is_refused_and_pointed_to_make_run(sandbox: Sandbox) -> None:
    (sandbox.state / "arch").write_text("amd64\n")
    result = sandbox.run()
    assert result.returncode == 1
    assert "architecture amd64" in result.stderr and "make run" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_arm64_passes_the_check(sandbox: Sandbox) -> None:
    result = sandbox.run()
    assert result.returncode == 0, result.stderr
    assert "architecture: arm64 (userland)" in result.stdout


# -- board settings ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("board", "block"),
    [
        ("pi3", "[pi3]\n# duetbox: a fixed core clock keeps the LED ring's SPI timing (docs/hardware.md)\n"
                "core_freq=250\n[all]\n"),
        ("zero2", "[pi02]\n# duetbox: a fixed core clock keeps the LED ring's SPI timing (docs/hardware.md)\n"
                  "core_freq=250\n[all]\n"),
        ("pi4", "[pi4]\n# duetbox: a fixed core clock keeps the LED ring's SPI timing (docs/hardware.md)\n"
                "core_freq=500\ncore_freq_min=500\n[all]\n"),
        ("pi400", "[pi4]\n# duetbox: a fixed core clock keeps the LED ring's SPI timing (docs/hardware.md)\n"
                  "core_freq=500\ncore_freq_min=500\n[all]\n"),
    ],
)
def test_the_board_gets_its_core_clock_once(sandbox: Sandbox, board: str, block: str) -> None:
    sandbox.model.write_bytes(MODELS[board].encode() + b"\0")
    assert sandbox.run().returncode == 0
    text = sandbox.boot_config.read_text()
    assert block in text and text.count("core_freq=") == block.count("core_freq="), text
    again = sandbox.run()
    assert again.returncode == 0
    assert sandbox.boot_config.read_text() == text
    assert "already set: core_freq=" in again.stdout


def test_a_pi_5_gets_no_core_clock(sandbox: Sandbox) -> None:
    sandbox.model.write_bytes(MODELS["pi5"].encode() + b"\0")
    result = sandbox.run()
    assert result.returncode == 0
    assert "core_freq" not in sandbox.boot_config.read_text()
    assert "the SPI clock does not follow the core clock: nothing to set" in result.stdout


def test_an_owner_set_core_clock_is_left_alone(dry_env: dict[str, str]) -> None:
    Path(dry_env["DUETBOX_BOOT_CONFIG"]).write_text("core_freq=400\n")
    out, plan = plan_of(env=with_model(dry_env, MODELS["pi4"]))
    assert "already set: core_freq=400 (left as it is)" in out
    assert "append_board_block" not in plan


def test_the_leds_driver_needs_no_core_clock(dry_env: dict[str, str]) -> None:
    config = Path(dry_env["DUETBOX_CONFIG"])
    config.parent.mkdir(parents=True)
    config.write_text('[ring]\ndriver = "leds"\n')
    out, plan = plan_of(env=with_model(dry_env, MODELS["pi4"]))
    assert 'ws2812-pio driver (driver = "leds")' in out and "append_board_block" not in plan


def test_no_device_tree_means_nothing_set(dry_env: dict[str, str]) -> None:
    out, plan = plan_of(env=dry_env)
    assert "no board model in" in out and "append_board_block" not in plan


# -- solo on a small board -------------------------------------------------------------------------------------

def test_solo_on_a_512_mb_board_skips_the_build_and_says_how_to_copy_the_vectors(dry_env: dict[str, str]) -> None:
    Path(dry_env["DUETBOX_MEMINFO"]).write_text("MemTotal:         427000 kB\n")  # a Zero 2 W
    out, plan = plan_of("--solo", env=with_model(dry_env, MODELS["zero2"]))
    assert "partner build" not in plan and "[pi,ai]" not in plan
    assert "'/opt/duetbox/src[pi,solo]'" in plan  # numpy, to play with copied vectors
    assert "has 416 MB of memory" in out
    assert "make partner && tar -C ~/.local/share/duetbox -c partner | ssh pi@duetbox.local" in out


def test_solo_on_a_1_gb_board_builds_the_vectors_itself(dry_env: dict[str, str]) -> None:
    Path(dry_env["DUETBOX_MEMINFO"]).write_text("MemTotal:         906000 kB\n")  # a 1 GB Pi 3 or Pi 4
    out, plan = plan_of("--solo", env=with_model(dry_env, MODELS["pi3"]))
    assert "'/opt/duetbox/src[pi,ai]'" in plan and "partner build --lang fr" in plan
    assert "ssh pi@duetbox.local" not in out


# -- upgrade and rollback ------------------------------------------------------------------------------------------

def installed(sandbox: Sandbox) -> None:
    """A first install, then a saved game in the state directory."""
    assert sandbox.run().returncode == 0
    sandbox.state_dir.mkdir(parents=True)
    (sandbox.state_dir / "duetbox.db").write_text("games, settings, sheets, PIN\n")
    (sandbox.prefix / "src" / "marker").write_text("old version\n")
    (sandbox.prefix / "VERSION").write_text("0.0.9 (git old)\n")


def test_upgrade_without_an_install_is_refused(sandbox: Sandbox) -> None:
    result = sandbox.run("--upgrade")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("install.sh: nothing installed in")


def test_upgrade_backs_up_installs_starts_and_keeps_the_games(sandbox: Sandbox) -> None:
    installed(sandbox)
    result = sandbox.run("--upgrade")
    assert result.returncode == 0, result.stdout + result.stderr
    calls = sandbox.calls()
    assert "systemctl stop duetbox.service" in calls
    stop = calls.index("systemctl stop duetbox.service")
    assert calls.index("systemctl restart duetbox.service") > stop
    assert any(c.startswith("python -m pip install --upgrade --constraint") for c in calls[stop:])
    assert (sandbox.state_dir / "duetbox.db").read_text() == "games, settings, sheets, PIN\n"
    assert not (sandbox.prefix / "previous").exists()  # the backup goes once the new version runs
    assert "upgraded from 0.0.9 (git old) to 0.1.0" in result.stdout
    assert "duetbox upgraded." in result.stdout


def test_upgrade_rolls_back_when_the_new_version_does_not_start(sandbox: Sandbox) -> None:
    installed(sandbox)

    (sandbox.state / "start-fails").touch()  # the next restart fails (the new version), later ones work
    result = sandbox.run("--upgrade")
    assert result.returncode == 1
    assert "Roll back to 0.0.9 (git old)" in headings(result.stdout)
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("install.sh: upgrade to 0.1.0") and "rolled back to 0.0.9 (git old)" in last
    assert (sandbox.prefix / "src" / "marker").read_text() == "old version\n"  # the old code is back
    assert (sandbox.prefix / "VERSION").read_text() == "0.0.9 (git old)\n"
    assert (sandbox.state_dir / "duetbox.db").read_text() == "games, settings, sheets, PIN\n"
    calls = sandbox.calls()
    assert calls.count("systemctl restart duetbox.service") == 2  # the new one (failed), then the old one
    assert "0.0.9 (git old) runs again" in result.stdout


def test_upgrade_rolls_back_when_a_step_fails(sandbox: Sandbox) -> None:
    installed(sandbox)
    (sandbox.state / "apt-fails").touch()
    result = sandbox.run("--upgrade")
    assert result.returncode != 0
    assert "the upgrade failed and 0.0.9 (git old) is back" in result.stderr
    assert (sandbox.prefix / "src" / "marker").read_text() == "old version\n"
    assert (sandbox.state_dir / "duetbox.db").read_text() == "games, settings, sheets, PIN\n"


def test_upgrade_dry_run_shows_the_backup_and_the_check(dry_env: dict[str, str]) -> None:
    out, plan = plan_of("--upgrade", env=dry_env)
    found = headings(out)
    assert found[1].startswith("Back up the installed version and the saved games")
    assert found[-1].startswith("Start the new version")
    assert "cp -a /opt/duetbox/src /opt/duetbox/venv /opt/duetbox/previous/" in plan
    assert "rsync -a --delete --exclude=partner/ /var/lib/duetbox/ /opt/duetbox/previous/state/" in plan
    assert "systemctl is-active --quiet duetbox.service" in plan


# -- log and version -------------------------------------------------------------------------------------------

def test_a_real_run_keeps_a_log_and_writes_the_version(sandbox: Sandbox) -> None:
    result = sandbox.run()
    assert result.returncode == 0
    log = sandbox.install_log.read_text()
    assert re.match(r"=== \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ install\.sh  ?\(0\.1\.0", log)
    assert "==> 1. Check the system" in log and "duetbox installed." in log
    version = (sandbox.prefix / "VERSION").read_text()
    assert version.startswith("0.1.0")
    sandbox.run()
    assert sandbox.install_log.read_text().count("=== ") == 2  # appended, not replaced


def test_a_dry_run_writes_no_log(dry_env: dict[str, str], tmp_path: Path) -> None:
    log = tmp_path / "install.log"
    plan_of(env=dry_env | {"DUETBOX_INSTALL_LOG": str(log)})
    assert not log.exists()


# -- sound and the serial port --------------------------------------------------------------------------------------

AMP = "dtoverlay=max98357a,no-sdmode"


def test_the_amplifier_overlay_and_the_default_output_are_set_once(sandbox: Sandbox) -> None:
    sandbox.model.write_bytes(MODELS["pi5"].encode() + b"\0")
    assert sandbox.run().returncode == 0
    boot, asound = sandbox.boot_config.read_text(), sandbox.asound_conf.read_text()
    assert boot.count(AMP) == 1 and boot.rstrip().endswith(AMP)
    assert 'pcm "hw:CARD=MAX98357A,DEV=0"' in asound and "type dmix" in asound and "card MAX98357A" in asound
    again = sandbox.run()
    assert again.returncode == 0
    assert sandbox.boot_config.read_text() == boot and sandbox.asound_conf.read_text() == asound
    assert f"already set: {AMP} (left as it is)" in again.stdout
    assert "already makes ALSA card MAX98357A the default output" in again.stdout


def test_an_owners_dac_overlay_and_asound_conf_are_kept(sandbox: Sandbox) -> None:
    sandbox.boot_config.write_text(sandbox.boot_config.read_text() + "dtoverlay=hifiberry-dac\n")
    result = sandbox.run()
    assert result.returncode == 0 and AMP not in sandbox.boot_config.read_text()
    assert 'pcm "hw:CARD=sndrpihifiberry,DEV=0"' in sandbox.asound_conf.read_text()
    sandbox.asound_conf.write_text("pcm.!default { type hw card 1 }\n")
    result = sandbox.run()
    assert "kept your own" in result.stdout and sandbox.asound_conf.read_text() == "pcm.!default { type hw card 1 }\n"


def test_the_pi_4_jack_instead_and_a_pi_5_refused(sandbox: Sandbox) -> None:
    sandbox.model.write_bytes(MODELS["pi4"].encode() + b"\0")
    assert sandbox.run("--audio", "jack").returncode == 0
    assert AMP not in sandbox.boot_config.read_text()
    assert 'pcm "hw:CARD=Headphones,DEV=0"' in sandbox.asound_conf.read_text()
    sandbox.model.write_bytes(MODELS["pi5"].encode() + b"\0")
    refused = sandbox.run("--audio", "jack")
    assert refused.returncode == 1 and "a Pi 5 has no 3.5 mm jack" in refused.stderr
    assert refused.stderr.strip().count("\n") <= 2  # the line, and the installer's "stopped at step" line


def test_audio_none_and_a_bad_audio_option(sandbox: Sandbox, dry_env: dict[str, str]) -> None:
    out, plan = plan_of("--audio", "none", env=dry_env)
    assert "--audio none: the sound configuration is left as it is" in out and "max98357a" not in plan
    from test_installer import run_installer as run

    bad = run("--dry-run", "--audio", "loud", env=dry_env)
    assert bad.returncode == 2 and bad.stderr.strip() == "install.sh: --audio takes i2s, jack or none (see --help)"


def test_the_serial_port_is_turned_off_once_for_gpio14_and_gpio15(sandbox: Sandbox) -> None:
    for name in ("serial_cons", "serial_hw"):
        (sandbox.state / name).touch()
    assert sandbox.run().returncode == 0
    calls = sandbox.log.read_text()
    assert "raspi-config nonint do_serial_cons 1" in calls and "raspi-config nonint do_serial_hw 1" in calls
    again = sandbox.run()
    assert "do_serial" not in sandbox.log.read_text()
    assert "GPIO14 and GPIO15 are plain inputs" in again.stdout
