"""systemd/install.sh: syntax, --dry-run plans (install, uninstall), --kiosk hints, the boot config edit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"
POLKIT_RULE = ROOT / "systemd" / "50-duetbox-power.rules"
UNIT = ROOT / "systemd" / "duetbox.service"
DOCS = ROOT / "docs"
TOOL_SCRIPTS = (ROOT / "tools" / "pi-check.sh", ROOT / "tools" / "lock.sh")

INSTALL_STEPS = [
    "Check the system",
    "Install Debian packages",
    "Enable I2C and SPI (raspi-config nonint)",
    "Set the I2C bus to 400 kHz",
    "Board settings for the LED ring",
    "Sound output (--audio i2s)",
    "Free GPIO14 and GPIO15 for seat B's OK and STOP (serial port off)",
    "Boot to the console",
    "Create the user duetbox and its device groups",
    "Install the app in /opt/duetbox (virtualenv with .[pi])",
    "Hardware configuration",
    "Allow the admin menu to power off and reboot (polkit rule)",
    "Install and enable the systemd unit",
    "Start the box",
]
UNINSTALL_STEPS = [
    "Check the system",
    "Stop and disable the service",
    "Undo the kiosk lock (if it was installed)",
    "Remove the unit and the polkit rule",
    "Remove the app and its configuration",
    "Remove the user duetbox",
    "Kept",
]


def run_installer(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ) | (env or {})
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, env=full_env, check=False
    )


def headings(output: str) -> list[str]:
    return re.findall(r"(?m)^==> \d+\. (.*)$", output)


def commands(output: str) -> list[str]:
    return re.findall(r"(?m)^    \+ (.*)$", output)


@pytest.fixture
def fake_boot(tmp_path: Path) -> dict[str, str]:
    """Point the installer's boot files and config at a temporary folder (config.txt without 400 kHz)."""
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("dtparam=audio=on\n\n[cm4]\notg_mode=1\n")
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=x rootfstype=ext4 rootwait\n")
    return {
        "DUETBOX_BOOT_CONFIG": str(config_txt),
        "DUETBOX_BOOT_CMDLINE": str(cmdline),
        "DUETBOX_CONFIG": str(tmp_path / "etc" / "config.toml"),
    }


def test_installer_bash_syntax() -> None:
    for script in (INSTALL, ROOT / "systemd" / "check_units.sh", *TOOL_SCRIPTS):
        result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr


@pytest.mark.skipif(
    shutil.which("shellcheck") is None, reason="shellcheck not installed (apt-get install shellcheck)"
)
def test_installer_shellcheck_clean() -> None:
    scripts = [str(INSTALL), str(ROOT / "systemd" / "check_units.sh"), *map(str, TOOL_SCRIPTS)]
    result = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


def test_installer_strict_mode_and_one_run_function() -> None:
    text = INSTALL.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert text.count("\nrun() {") == 1


def test_installer_help_lists_every_option() -> None:
    result = run_installer("--help")
    assert result.returncode == 0
    for option in ("--dry-run", "--solo", "--uninstall", "--kiosk", "--help"):
        assert option in result.stdout
    assert result.stderr == ""


def test_installer_unknown_option_is_one_line_and_exit_two() -> None:
    result = run_installer("--frobnicate")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["install.sh: unknown option '--frobnicate' (see --help)"]
    assert result.stdout == ""


def test_installer_dry_run_prints_every_step(fake_boot: dict[str, str]) -> None:
    result = run_installer("--dry-run", env=fake_boot)
    assert result.returncode == 0, result.stderr
    found = headings(result.stdout)
    assert len(found) == len(INSTALL_STEPS)
    for step, heading in zip(INSTALL_STEPS, found, strict=True):
        assert heading.startswith(step), (step, heading)
    assert "dry run: nothing was changed" in result.stdout


def test_installer_dry_run_plan_has_each_command(fake_boot: dict[str, str]) -> None:
    out = run_installer("--dry-run", env=fake_boot).stdout
    plan = "\n".join(commands(out))
    assert re.search(r"apt-get install -y .*python3-venv.*i2c-tools.*polkitd", plan)
    for bus in ("i2c", "spi"):
        assert f"raspi-config nonint do_{bus} 0" in plan or f"{bus.upper()} already enabled" in out
    assert f"append_boot_setting {fake_boot['DUETBOX_BOOT_CONFIG']} dtparam=i2c_arm_baudrate=400000" in plan
    assert re.search(r"useradd --system .* duetbox$", plan, re.M) or "user duetbox exists" in out
    usermod = re.search(r"usermod --append --groups (\S+) duetbox", plan)
    assert usermod and set(usermod.group(1).split(",")) >= {"gpio", "i2c", "spi", "video", "input", "render"}
    assert "python3 -m venv /opt/duetbox/venv" in plan or "virtualenv /opt/duetbox/venv exists" in out
    assert ("/opt/duetbox/venv/bin/python -m pip install --upgrade --constraint "
            "/opt/duetbox/src/constraints/bookworm-arm64.txt '/opt/duetbox/src[pi]'") in plan
    assert (
        f"install -D -m 0644 /opt/duetbox/src/hardware/data/default.toml {fake_boot['DUETBOX_CONFIG']}"
        in plan
    )
    assert f"install -D -m 0644 {POLKIT_RULE} /etc/polkit-1/rules.d/50-duetbox-power.rules" in plan
    assert f"install -D -m 0644 {UNIT} /etc/systemd/system/duetbox.service" in plan
    assert "systemctl daemon-reload" in plan
    assert "systemctl enable duetbox.service" in plan
    assert "reboot" in out


def test_installer_dry_run_solo_installs_the_ai_extra_and_builds_vectors(
    fake_boot: dict[str, str], tmp_path: Path
) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:        3882000 kB\nMemFree:  100 kB\n")
    out = run_installer("--dry-run", "--solo", env=fake_boot | {"DUETBOX_MEMINFO": str(meminfo)}).stdout
    plan = "\n".join(commands(out))
    assert "--constraint /opt/duetbox/src/constraints/bookworm-arm64.txt '/opt/duetbox/src[pi,ai]'" in plan
    assert re.search(r"runuser -u duetbox -- /opt/duetbox/venv/bin/duetbox partner build --lang fr --if-missing "
                     r"--data-dir /var/lib/duetbox", plan)
    plain = "\n".join(commands(run_installer("--dry-run", env=fake_boot).stdout))
    assert "partner build" not in plain and "[pi,ai]" not in plain


def test_installer_dry_run_changes_nothing(fake_boot: dict[str, str], tmp_path: Path) -> None:
    before = {name: Path(path).read_text() for name, path in fake_boot.items() if Path(path).exists()}
    opt_existed = Path("/opt/duetbox").exists()
    result = run_installer("--dry-run", env=fake_boot)
    assert result.returncode == 0
    assert {name: Path(path).read_text() for name, path in fake_boot.items() if Path(path).exists()} == before
    assert not Path(fake_boot["DUETBOX_CONFIG"]).exists()
    assert Path("/opt/duetbox").exists() == opt_existed


def test_installer_dry_run_keeps_an_existing_config(fake_boot: dict[str, str]) -> None:
    config = Path(fake_boot["DUETBOX_CONFIG"])
    config.parent.mkdir(parents=True)
    config.write_text("# my wiring\n")
    out = run_installer("--dry-run", env=fake_boot).stdout
    assert f"kept the existing {config}" in out
    assert not any(cmd.endswith(str(config)) and cmd.startswith("install") for cmd in commands(out))
    assert config.read_text() == "# my wiring\n"


@pytest.mark.parametrize(
    "line",
    [
        "dtparam=i2c_arm_baudrate=1000000",
        "dtparam=i2c_arm=on,i2c_arm_baudrate=100000",
        "dtparam=i2c_arm=on,i2c_baudrate=400000",
    ],
)
def test_installer_dry_run_leaves_a_set_baudrate_alone(fake_boot: dict[str, str], line: str) -> None:
    config_txt = Path(fake_boot["DUETBOX_BOOT_CONFIG"])
    config_txt.write_text(f"dtparam=i2c_arm=on\n{line}\n")
    out = run_installer("--dry-run", env=fake_boot).stdout
    assert f"already set: {line}" in out
    assert not any("append_boot_setting" in cmd and "baudrate" in cmd for cmd in commands(out))


def test_installer_dry_run_ignores_a_commented_baudrate(fake_boot: dict[str, str]) -> None:
    Path(fake_boot["DUETBOX_BOOT_CONFIG"]).write_text("#dtparam=i2c_arm_baudrate=400000\n")
    out = run_installer("--dry-run", env=fake_boot).stdout
    assert any("append_boot_setting" in cmd for cmd in commands(out))


def test_installer_dry_run_uninstall_plan_keeps_saved_games() -> None:
    result = run_installer("--dry-run", "--uninstall")
    assert result.returncode == 0, result.stderr
    assert headings(result.stdout) == UNINSTALL_STEPS
    plan = commands(result.stdout)
    assert "systemctl disable --now duetbox.service" in plan
    assert "rm -f /etc/systemd/system/duetbox.service /etc/polkit-1/rules.d/50-duetbox-power.rules" in plan
    assert "rm -rf /opt/duetbox /etc/duetbox /var/cache/duetbox" in plan
    assert "userdel duetbox" in plan
    assert not any("/var/lib/duetbox" in cmd for cmd in plan)
    assert "/var/lib/duetbox: saved games" in result.stdout


def test_installer_kiosk_dry_run_plans_the_console_lock_and_prints_hints(fake_boot: dict[str, str]) -> None:
    before = Path(fake_boot["DUETBOX_BOOT_CMDLINE"]).read_text()
    result = run_installer("--kiosk", "--dry-run", env=fake_boot)
    assert result.returncode == 0, result.stderr
    for hint in (
        "console=tty3",
        "overlayroot=tmpfs:recurse=0",
        "Storage=volatile",
        "/var/lib/duetbox",
        "do_overlayfs 0",
        "docs/kiosk.md",
    ):
        assert hint in result.stdout, hint
    plan = commands(result.stdout)
    assert "systemctl mask ctrl-alt-del.target" in plan  # Ctrl+Alt+Del does nothing
    assert any(cmd.endswith("/etc/sysctl.d/90-duetbox-kiosk.conf") for cmd in plan)  # SysRq off
    assert any(cmd.endswith("/etc/systemd/logind.conf.d/90-duetbox-kiosk.conf") for cmd in plan)  # no gettys
    assert any(cmd.endswith("/etc/duetbox/kiosk-keys.map") for cmd in plan)  # no console switching keys
    assert "systemctl enable duetbox-kiosk-keys.service" in plan
    assert Path(fake_boot["DUETBOX_BOOT_CMDLINE"]).read_text() == before  # the boot hints are only hints


def test_installer_plain_install_does_not_lock_the_console(fake_boot: dict[str, str]) -> None:
    plan = commands(run_installer("--dry-run", env=fake_boot).stdout)
    assert not any("ctrl-alt-del" in cmd or "kiosk" in cmd for cmd in plan)


def test_installer_uninstall_undoes_the_kiosk_lock(fake_boot: dict[str, str]) -> None:
    plan = commands(run_installer("--uninstall", "--dry-run", env=fake_boot).stdout)
    assert "systemctl unmask ctrl-alt-del.target" in plan
    assert ("rm -f /etc/systemd/system/duetbox-kiosk-keys.service /etc/sysctl.d/90-duetbox-kiosk.conf "
            "/etc/systemd/logind.conf.d/90-duetbox-kiosk.conf") in plan


def test_installer_kiosk_keymap_takes_console_switching_off_the_keyboard() -> None:
    keymap = (ROOT / "systemd" / "kiosk" / "kiosk-keys.map").read_text()
    for fkey in (*range(59, 69), 87, 88):  # F1..F12
        for mods in ("alt", "control alt"):
            assert f"{mods} keycode {fkey} = VoidSymbol" in keymap
    assert "alt keycode 105 = VoidSymbol" in keymap and "alt keycode 106 = VoidSymbol" in keymap
    assert "kernel.sysrq = 0" in (ROOT / "systemd" / "kiosk" / "90-duetbox-kiosk-sysctl.conf").read_text()
    logind = (ROOT / "systemd" / "kiosk" / "90-duetbox-kiosk-logind.conf").read_text()
    assert "NAutoVTs=0" in logind and "ReserveVT=0" in logind


def source_and_call(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", f"source {INSTALL} && {script}"], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "dtparam=audio=on\n\n[cm4]\notg_mode=1\n",
            "dtparam=audio=on\n\n[cm4]\notg_mode=1\n[all]\ndtparam=i2c_arm_baudrate=400000\n",
        ),
        (
            "dtparam=audio=on\n[all]\narm_boost=1",
            "dtparam=audio=on\n[all]\narm_boost=1\ndtparam=i2c_arm_baudrate=400000\n",
        ),
        ("dtparam=audio=on\n", "dtparam=audio=on\ndtparam=i2c_arm_baudrate=400000\n"),
    ],
)
def test_installer_append_boot_setting_lands_in_an_all_section(
    tmp_path: Path, before: str, after: str
) -> None:
    config_txt = tmp_path / "config.txt"
    config_txt.write_text(before)
    result = source_and_call(f"append_boot_setting {config_txt} dtparam=i2c_arm_baudrate=400000")
    assert result.returncode == 0, result.stderr
    assert config_txt.read_text() == after


def test_installer_sourcing_runs_nothing() -> None:
    result = source_and_call("echo sourced")
    assert result.stdout == "sourced\n"


def test_installer_polkit_rule_allows_only_power_actions_for_duetbox() -> None:
    text = POLKIT_RULE.read_text()
    actions = set(re.findall(r'"(org\.freedesktop\.[\w.-]+)"', text))
    assert actions == {
        "org.freedesktop.login1.power-off",
        "org.freedesktop.login1.power-off-multiple-sessions",
        "org.freedesktop.login1.reboot",
        "org.freedesktop.login1.reboot-multiple-sessions",
    }
    assert 'subject.user === "duetbox"' in text
    assert "polkit.Result.YES" in text
    # polkit 122 runs rules with an ES5 engine: no let/const/arrow functions.
    assert not re.search(r"\b(let|const)\b|=>", text.split("polkit.addRule", 1)[1])


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed: polkit rule syntax not checked")
def test_installer_polkit_rule_parses_as_javascript(tmp_path: Path) -> None:
    probe = tmp_path / "probe.js"
    probe.write_text(
        "var rules=[];\n"
        "var polkit={Result:{YES:'yes',NOT_HANDLED:undefined},addRule:function(f){rules.push(f);}};\n"
        + POLKIT_RULE.read_text()
        + "\nconsole.log(rules[0]({id:'org.freedesktop.login1.reboot'},{user:'duetbox'}),"
        "rules[0]({id:'org.freedesktop.login1.reboot'},{user:'pi'}),"
        "rules[0]({id:'org.freedesktop.systemd1.manage-units'},{user:'duetbox'}));\n"
    )
    result = subprocess.run(["node", str(probe)], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "yes undefined undefined", result.stderr


def test_installer_paths_match_the_unit() -> None:
    unit = UNIT.read_text()
    script = INSTALL.read_text()
    assert "User=duetbox" in unit and "APP_USER=duetbox" in script
    assert "StateDirectory=duetbox" in unit and "STATE_DIR=${DUETBOX_STATE_DIR:-/var/lib/duetbox}" in script
    assert "ExecStart=/opt/duetbox/venv/bin/duetbox" in unit and "VENV=$PREFIX/venv" in script
    assert "--config /etc/duetbox/config.toml" in unit and "$ETC_DIR/config.toml" in script
    groups = re.search(r"(?m)^SupplementaryGroups=(.*)$", unit)
    listed = re.search(r"DEVICE_GROUPS=\(([^)]*)\)", script)
    assert groups and listed and groups.group(1).split() == listed.group(1).split()


def test_installer_docs_follow_the_installer() -> None:
    install_md = (DOCS / "install.md").read_text()
    # INSTALL_STEPS is checked against the real --dry-run output above.
    for step in INSTALL_STEPS:
        assert re.sub(r" \(.*\)$", "", step) in install_md, step
    for option in ("--dry-run", "--uninstall", "--kiosk"):
        assert option in install_md
    trouble = (DOCS / "troubleshooting.md").read_text()
    for needle in (
        "journalctl -u duetbox",
        "i2cdetect -y 1",
        "SH1106",
        "core_freq",
        "GRB",
        "KMSDRM",
        "render",
        "gpio",
        "reset-failed",
    ):
        assert needle in trouble, needle
    kiosk = (DOCS / "kiosk.md").read_text()
    for needle in (
        "overlayroot=tmpfs:recurse=0",
        "/var/lib/duetbox",
        "hot-seat",
        "PIN",
        "install.sh --kiosk",
    ):
        assert needle in kiosk, needle


# -- A real (not dry) run against stand-in commands -------------------------------------------------------
#
# PATH holds only stand-ins: every system command the installer runs is one that logs its arguments and keeps
# a little state (groups, the user, which buses raspi-config enabled), plus a few harmless real tools (grep,
# tail...). A command the test forgot is "not found", never the real one, so nothing on this machine changes.

STAND_IN = r"""#!/bin/bash
PATH=/usr/bin:/bin
name=$(basename "$0")
echo "$name $*" >>"$STUB_LOG"
state=$STUB_STATE
case "$name" in
    raspi-config)
        case "$2" in
            get_i2c | get_spi) [ -e "$state/${2#get_}" ] && echo 0 || echo 1 ;;
            do_i2c) touch "$state/i2c"; echo "dtparam=i2c_arm=on" >>"$DUETBOX_BOOT_CONFIG" ;;
            do_spi) touch "$state/spi"; echo "dtparam=spi=on" >>"$DUETBOX_BOOT_CONFIG" ;;
            do_boot_behaviour) touch "$state/console" ;;
            get_serial_cons | get_serial_hw) [ -e "$state/${2#get_}" ] && echo 0 || echo 1 ;;
            do_serial_cons | do_serial_hw) [ "$3" = 1 ] && rm -f "$state/${2#do_}" ;;
        esac ;;
    systemctl)
        desktop=0
        [ -e "$state/desktop" ] && [ ! -e "$state/console" ] && desktop=1
        case "$1" in
            is-enabled) [ "$desktop" = 1 ] ;;
            get-default) [ "$desktop" = 1 ] && echo graphical.target || echo multi-user.target ;;
            is-active) echo active ;;
            restart) if [ -e "$state/start-fails" ]; then rm "$state/start-fails"; exit 1; fi ;;
        esac ;;
    getent) grep -qx "$2" "$state/groups" ;;
    groupadd) echo "${*: -1}" >>"$state/groups" ;;
    id)
        if [ $# -eq 1 ]; then echo 0; else [ -e "$state/user" ]; fi ;;
    useradd) touch "$state/user" ;;
    apt-get) [ ! -e "$state/apt-fails" ] || { echo "E: Unable to locate package" >&2; exit 100; } ;;
    install)
        last=${*: -1}
        case "$last" in "$SANDBOX"/*) /usr/bin/install "$@" ;; esac ;;
    python3)
        if [ "$1 $2" = "-m venv" ]; then
            mkdir -p "$3/bin"
            ln -sf "$STUB_BIN/python3" "$3/bin/python"
            ln -sf "$STUB_BIN/python3" "$3/bin/duetbox"
        fi ;;
    tty) echo /dev/pts/0 ;;
    dpkg) [ "$1" = --print-architecture ] && cat "$state/arch" ;;
    rm)  # only when every path is inside the sandbox
        inside=1
        for arg in "$@"; do case "$arg" in -*) ;; "$SANDBOX"/*) ;; *) inside=0 ;; esac; done
        [ "$inside" = 0 ] || /bin/rm "$@" ;;
    cp | mv)  # only inside the sandbox
        for arg in "${@: -1}"; do case "$arg" in "$SANDBOX"/*) "/bin/$name" "$@" ;; esac; done ;;
    rsync)
        src=${*: -2:1}; dest=${*: -1}
        if [ -e "$src/pyproject.toml" ]; then  # the checkout: copy just what the later steps read
            mkdir -p "$dest/hardware/data" && cp "$src/hardware/data/default.toml" "$dest/hardware/data/"
        else  # the saved games (upgrade backup and rollback): a real copy, inside the sandbox only
            case "$dest" in "$SANDBOX"/*) rm -rf "$dest"; mkdir -p "$dest"; cp -a "$src." "$dest" ;; esac
        fi ;;
esac
"""
STUBBED = (
    "raspi-config",
    "systemctl",
    "getent",
    "groupadd",
    "id",
    "useradd",
    "usermod",
    "userdel",
    "apt-get",
    "env",
    "install",
    "rsync",
    "python3",
    "tty",
    "rm",
    "dpkg",
    "cp",
    "mv",
)
REAL_TOOLS = ("grep", "tail", "tr", "cat", "cksum", "uname", "dirname", "tee", "date", "mkdir", "sed", "head", "awk",
              "find", "sort", "xargs", "sha256sum", "cut")


class Sandbox:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.state = root / "state"
        self.log = root / "calls.log"
        self.boot_config = root / "boot" / "config.txt"
        self.config = root / "etc" / "duetbox" / "config.toml"
        self.prefix = root / "opt" / "duetbox"
        for folder in (self.bin, self.state, self.boot_config.parent):
            folder.mkdir(parents=True)
        stand_in = self.bin / "python3"
        stand_in.write_text(STAND_IN)
        stand_in.chmod(0o755)
        for name in STUBBED:
            if name != "python3":
                (self.bin / name).symlink_to(stand_in)
        for name in REAL_TOOLS:
            real = shutil.which(name)
            assert real, name
            (self.bin / name).symlink_to(real)
        (self.state / "groups").write_text("video\naudio\n")
        (self.state / "arch").write_text("arm64\n")
        self.os_release = root / "os-release"
        self.os_release.write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
        self.model = root / "model"
        self.meminfo = root / "meminfo"
        self.meminfo.write_text("MemTotal:        3882000 kB\n")
        self.state_dir = root / "var" / "lib" / "duetbox"
        self.install_log = root / "var" / "log" / "duetbox-install.log"
        self.asound_conf = root / "etc" / "asound.conf"
        self.asound_conf.parent.mkdir(parents=True, exist_ok=True)
        self.boot_config.write_text("# Raspberry Pi OS\ndtparam=audio=on\n\n[cm4]\notg_mode=1\n\n[all]\n")
        (root / "boot" / "cmdline.txt").write_text("console=tty1 root=PARTUUID=x rootwait\n")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        self.log.write_text("")
        env = {
            "PATH": str(self.bin),
            "HOME": str(self.root),
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            "STUB_BIN": str(self.bin),
            "SANDBOX": str(self.root),
            "DUETBOX_PREFIX": str(self.prefix),
            "DUETBOX_CONFIG": str(self.config),
            "DUETBOX_BOOT_CONFIG": str(self.boot_config),
            "DUETBOX_BOOT_CMDLINE": str(self.root / "boot" / "cmdline.txt"),
            "DUETBOX_OS_RELEASE": str(self.os_release),
            "DUETBOX_DT_MODEL": str(self.model),
            "DUETBOX_MEMINFO": str(self.meminfo),
            "DUETBOX_STATE_DIR": str(self.state_dir),
            "DUETBOX_INSTALL_LOG": str(self.install_log),
            "DUETBOX_ASOUND_CONF": str(self.asound_conf),
        }
        bash = shutil.which("bash") or "/bin/bash"
        return subprocess.run(
            [bash, str(INSTALL), *args],
            capture_output=True,
            text=True,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=60,
            check=False,
        )

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


def test_installer_first_run_installs_everything_and_asks_for_a_reboot(sandbox: Sandbox) -> None:
    result = sandbox.run()
    assert result.returncode == 0, result.stdout + result.stderr
    calls = sandbox.calls()
    assert "apt-get update" in calls
    assert any(c.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install -y") for c in calls)
    assert "raspi-config nonint do_i2c 0" in calls and "raspi-config nonint do_spi 0" in calls
    assert not any("do_boot_behaviour" in c for c in calls)  # Lite: no desktop
    assert [c for c in calls if c.startswith("groupadd")] == [
        f"groupadd --system {g}" for g in ("gpio", "i2c", "spi", "input", "render")
    ]
    assert any(c.startswith("useradd --system") and c.endswith(" duetbox") for c in calls)
    assert f"python3 -m venv {sandbox.prefix}/venv" in calls
    assert (f"python -m pip install --upgrade --constraint {sandbox.prefix}/src/constraints/bookworm-arm64.txt "
            f"{sandbox.prefix}/src[pi]") in calls
    assert sandbox.config.read_text() == (ROOT / "hardware" / "data" / "default.toml").read_text()
    assert "systemctl enable duetbox.service" in calls
    # The boot configuration changed: a reboot is asked for and the service is not started now.
    assert "the boot configuration changed" in result.stdout
    assert "reboot with: sudo reboot" in result.stdout
    assert not any(c.startswith("systemctl restart") or c == "systemctl reboot" for c in calls)
    text = sandbox.boot_config.read_text()
    assert text.endswith("[all]\ndtparam=i2c_arm=on\ndtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n"
                         "dtoverlay=max98357a,no-sdmode\n")


def test_installer_second_run_changes_nothing_and_starts_the_service(sandbox: Sandbox) -> None:
    assert sandbox.run().returncode == 0
    boot_after_first = sandbox.boot_config.read_text()
    sandbox.config.write_text("# edited by the owner\n")
    result = sandbox.run()
    assert result.returncode == 0, result.stdout + result.stderr
    calls = sandbox.calls()
    assert not any(
        c.startswith(("raspi-config nonint do_", "groupadd", "useradd", "python3 -m venv")) for c in calls
    )
    for line in (
        "I2C already enabled",
        "SPI already enabled",
        "already set: dtparam=i2c_arm_baudrate=400000",
        "user duetbox exists",
        f"virtualenv {sandbox.prefix}/venv exists",
        "kept the existing",
    ):
        assert line in result.stdout, line
    assert sandbox.boot_config.read_text() == boot_after_first
    assert sandbox.config.read_text() == "# edited by the owner\n"
    assert f"duetbox config check {sandbox.config}" in calls  # the kept config is checked
    assert any(c.startswith("python -m pip install --upgrade --constraint") for c in calls)  # app refreshed
    assert "systemctl restart duetbox.service" in calls
    assert "boot configuration changed" not in result.stdout


def test_installer_second_run_skips_pip_when_the_sources_and_pins_are_the_same(sandbox: Sandbox) -> None:
    # The copied sources (rsync is a stand-in here, so they are put in place by hand) and an installed venv.
    src = sandbox.prefix / "src"
    (src / "constraints").mkdir(parents=True)
    (src / "constraints" / "bookworm-arm64.txt").write_text((ROOT / "constraints" / "bookworm-arm64.txt").read_text())
    (src / "pyproject.toml").write_text('[project]\nname = "duetbox"\nversion = "0.1.0"\n')
    venv_bin = sandbox.prefix / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "duetbox").write_text("#!/bin/sh\n")
    (venv_bin / "duetbox").chmod(0o755)
    pip = "python -m pip install --upgrade --constraint"
    assert sandbox.run().returncode == 0
    assert any(c.startswith(pip) for c in sandbox.calls())
    # pip's build leaves egg-info and build/ in the tree (rsync keeps them): not a change of the sources
    (src / "duetbox.egg-info").mkdir()
    (src / "duetbox.egg-info" / "PKG-INFO").write_text("Name: duetbox\n")
    (src / "build" / "lib").mkdir(parents=True)
    (src / "build" / "lib" / "x.py").write_text("")
    again = sandbox.run()
    assert again.returncode == 0, again.stdout + again.stderr
    assert not any(c.startswith(pip) for c in sandbox.calls())  # nothing to install: no network needed
    assert "already holds these sources" in again.stdout
    (src / "pyproject.toml").write_text('[project]\nname = "duetbox"\nversion = "0.1.1"\n')  # an update
    assert sandbox.run().returncode == 0
    assert any(c.startswith(pip) for c in sandbox.calls())


def test_installer_desktop_image_boots_to_the_console(sandbox: Sandbox) -> None:
    (sandbox.state / "desktop").touch()
    (sandbox.state / "i2c").touch()
    (sandbox.state / "spi").touch()
    sandbox.boot_config.write_text("dtparam=i2c_arm_baudrate=400000\n")
    result = sandbox.run()
    assert result.returncode == 0, result.stderr
    assert "raspi-config nonint do_boot_behaviour B1" in sandbox.calls()
    assert "the boot configuration changed" in result.stdout
    again = sandbox.run()
    assert "no desktop at boot" in again.stdout
    assert not any("do_boot_behaviour" in c for c in sandbox.calls())


def test_installer_stops_at_the_first_failing_step(sandbox: Sandbox) -> None:
    (sandbox.state / "apt-fails").touch()
    result = sandbox.run()
    assert result.returncode != 0
    assert "E: Unable to locate package" in result.stderr
    assert "install.sh: stopped at step 2 (Install Debian packages)" in result.stderr
    assert not any(c.startswith(("raspi-config", "useradd", "systemctl enable")) for c in sandbox.calls())


def test_installer_real_uninstall_keeps_saved_games(sandbox: Sandbox) -> None:
    (sandbox.state / "user").touch()
    result = sandbox.run("--uninstall")
    assert result.returncode == 0, result.stdout + result.stderr
    calls = sandbox.calls()
    assert f"rm -rf {sandbox.prefix} /etc/duetbox /var/cache/duetbox" in calls
    assert "userdel duetbox" in calls
    assert not any("/var/lib/duetbox" in c for c in calls)
