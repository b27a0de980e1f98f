#!/usr/bin/env bash
# duetbox installer for Raspberry Pi OS Bookworm (Lite or Desktop). Usage: see --help, or docs/install.md.
#
# Every change to the system goes through `run`, which prints the command and then executes it, or only
# prints it with --dry-run. Checks that decide whether a step is needed only read. Running it twice is safe:
# what is already in place is left alone, the app and the unit are refreshed.
set -euo pipefail
set -o errtrace
trap 'on_error $?' ERR

PROG=install.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_TREE=$(cd "$HERE/.." && pwd)

# DUETBOX_PREFIX, DUETBOX_CONFIG, DUETBOX_BOOT_CONFIG and DUETBOX_BOOT_CMDLINE move those files elsewhere: for
# tests only, the unit file expects the defaults.
APP_USER=duetbox
DEVICE_GROUPS=(gpio i2c spi video input render audio)
PREFIX=${DUETBOX_PREFIX:-/opt/duetbox}
SRC_DIR=$PREFIX/src
VENV=$PREFIX/venv
ETC_DIR=/etc/duetbox
CONFIG=${DUETBOX_CONFIG:-$ETC_DIR/config.toml}
STATE_DIR=/var/lib/duetbox
WITH_SOLO=0
UNIT_NAME=duetbox.service
UNIT_DEST=/etc/systemd/system/$UNIT_NAME
POLKIT_RULE=50-duetbox-power.rules
POLKIT_DEST=/etc/polkit-1/rules.d/$POLKIT_RULE
I2C_BAUDRATE_LINE=dtparam=i2c_arm_baudrate=400000
# python3-dev and build-essential: spidev has no wheel and is compiled at install. libgbm1, libegl1, libgles2,
# libdrm2, libgl1-mesa-dri and libudev1: what pygame-ce's SDL loads for KMSDRM. i2c-tools: i2cdetect.
# espeak-ng: the spoken announcements (the app hides that option without it).
APT_PACKAGES=(python3 python3-venv python3-pip python3-dev build-essential git rsync i2c-tools polkitd
    libgbm1 libegl1 libgles2 libdrm2 libgl1-mesa-dri libudev1 libasound2 espeak-ng)

# Bookworm keeps the boot partition in /boot/firmware; older images in /boot.
first_existing() {
    local path
    for path in "$@"; do
        if [ -e "$path" ]; then
            echo "$path"
            return
        fi
    done
    echo "$1"
}
BOOT_CONFIG=${DUETBOX_BOOT_CONFIG:-$(first_existing /boot/firmware/config.txt /boot/config.txt)}
BOOT_CMDLINE=${DUETBOX_BOOT_CMDLINE:-$(first_existing /boot/firmware/cmdline.txt /boot/cmdline.txt)}

DRY_RUN=0
ACTION=install
STEP=0
STEP_TITLE="start"
REBOOT_NEEDED=0

usage() {
    cat <<EOF
usage: sudo systemd/install.sh [--dry-run] [--solo] [--uninstall | --kiosk]

Installs duetbox on Raspberry Pi OS Bookworm (Lite or Desktop) as a service that starts at boot:
Debian packages, I2C at 400 kHz and SPI, the user $APP_USER, a virtualenv in $PREFIX with the app,
$CONFIG (an existing one is kept), a polkit rule so the admin menu may power off and
reboot, and the systemd unit $UNIT_NAME. Asks for a reboot when the boot configuration changed.
Safe to run again, e.g. after 'git pull' to update.

options:
  --dry-run     print every step without changing anything (no root needed)
  --solo        also install the solo partner: the 'ai' extra (a large download) and its French word
                vectors, exported once into $STATE_DIR/partner (several minutes on a Pi)
  --uninstall   remove the service, the app, the user, the polkit rule and $ETC_DIR;
                keeps the saved games in $STATE_DIR
  --kiosk       print how to harden a café or kiosk box (console, read-only root); changes nothing
  -h, --help    show this help
EOF
}

die() {
    echo "$PROG: $*" >&2
    exit 1
}

note() {
    echo "    $*"
}

step() {
    STEP=$((STEP + 1))
    STEP_TITLE=$*
    echo
    echo "==> $STEP. $*"
}

on_error() {
    trap - ERR
    echo "$PROG: stopped at step $STEP ($STEP_TITLE): the command above failed (exit status $1)." >&2
    echo "$PROG: fix the cause and run it again; the steps already done are skipped or repeated safely." >&2
    exit "$1"
}

# Print a command the way a shell would read it back, then run it (unless --dry-run).
run() {
    local word shown=()
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
            shown+=("$word")
        else
            shown+=("${word@Q}")
        fi
    done
    echo "    + ${shown[*]}"
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

# Append one setting to config.txt, under an [all] section so that no earlier filter ([pi4], [cm4]...)
# limits it.
append_boot_setting() {
    local file=$1 line=$2 last_section last_char
    last_section=$(grep -E '^[[:space:]]*\[' "$file" | tail -n 1 | tr -d '[:space:]' || true)
    last_char=$(tail -c 1 "$file")
    {
        [ -z "$last_char" ] || echo
        if [ -n "$last_section" ] && [ "$last_section" != "[all]" ]; then
            echo "[all]"
        fi
        echo "$line"
    } >>"$file"
}

boot_fingerprint() {
    # Whatever changes here needs a reboot: config.txt, cmdline.txt and the default target.
    {
        cat "$BOOT_CONFIG" "$BOOT_CMDLINE" 2>/dev/null || true
        systemctl get-default 2>/dev/null || true
    } | cksum
}

have() {
    command -v "$1" >/dev/null 2>&1
}

check_system() {
    step "Check the system"
    if [ "$DRY_RUN" -eq 1 ]; then
        note "dry run: nothing is changed; the commands below are what a real run would execute"
    elif [ "$(id -u)" -ne 0 ]; then
        die "must run as root: sudo systemd/install.sh (or try --dry-run)"
    fi
    local codename=unknown
    if [ -r /etc/os-release ]; then
        # shellcheck source=/dev/null
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-unknown}")
    fi
    note "OS: $codename, architecture: $(uname -m), source: $SRC_TREE"
    if [ "$ACTION" = uninstall ]; then
        return
    fi
    if [ "$codename" != bookworm ]; then
        note "warning: made for Raspberry Pi OS Bookworm; other releases may need other package names"
    fi
    if [ "$(uname -m)" != aarch64 ]; then
        note "warning: not a 64-bit ARM system; pip may have to build lgpio and pygame-ce from source"
    fi
    if ! have raspi-config; then
        if [ "$DRY_RUN" -eq 1 ]; then
            note "raspi-config not found (not a Raspberry Pi OS system): fine for a dry run"
        else
            die "raspi-config not found: this installer is for Raspberry Pi OS"
        fi
    fi
    [ -f "$SRC_TREE/pyproject.toml" ] || die "no pyproject.toml in $SRC_TREE: run the script from a duetbox checkout"
}

install_packages() {
    step "Install Debian packages"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
}

enable_buses() {
    step "Enable I2C and SPI (raspi-config nonint)"
    if have raspi-config && [ "$(raspi-config nonint get_i2c 2>/dev/null || echo 1)" = 0 ]; then
        note "I2C already enabled"
    else
        run raspi-config nonint do_i2c 0
    fi
    if have raspi-config && [ "$(raspi-config nonint get_spi 2>/dev/null || echo 1)" = 0 ]; then
        note "SPI already enabled"
    else
        run raspi-config nonint do_spi 0
    fi

    step "Set the I2C bus to 400 kHz ($BOOT_CONFIG)"
    local current=""
    if [ -r "$BOOT_CONFIG" ]; then
        # Also the combined forms: dtparam=i2c_arm=on,i2c_arm_baudrate=... and luma's i2c_baudrate spelling.
        current=$(grep -E '^[[:space:]]*dtparam=([^#]*,)?i2c(_arm)?_baudrate=' "$BOOT_CONFIG" | tail -n 1 || true)
    fi
    if [ -n "$current" ]; then
        note "already set: $current (left as it is)"
    else
        run append_boot_setting "$BOOT_CONFIG" "$I2C_BAUDRATE_LINE"
    fi
}

console_boot() {
    step "Boot to the console (the box draws on the screen itself)"
    if [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ] \
        && systemctl is-enabled --quiet display-manager.service 2>/dev/null; then
        note "a desktop display manager is enabled; it would hold the screen, so boot to the text console"
        note "(undo with: sudo raspi-config nonint do_boot_behaviour B4)"
        run raspi-config nonint do_boot_behaviour B1
    else
        note "no desktop at boot: nothing to do"
    fi
}

create_user() {
    step "Create the user $APP_USER and its device groups"
    local group
    for group in "${DEVICE_GROUPS[@]}"; do
        if getent group "$group" >/dev/null; then
            note "group $group exists"
        else
            run groupadd --system "$group"
        fi
    done
    if id -u "$APP_USER" >/dev/null 2>&1; then
        note "user $APP_USER exists"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "duetbox table box" "$APP_USER"
    fi
    local joined
    joined=$(IFS=,; echo "${DEVICE_GROUPS[*]}")
    run usermod --append --groups "$joined" "$APP_USER"
}

install_app() {
    step "Install the app in $PREFIX (virtualenv with .[pi])"
    run install -d -m 0755 "$PREFIX"
    if [ "$SRC_TREE" = "$SRC_DIR" ]; then
        note "running from $SRC_DIR itself: no copy needed"
    else
        # Owned by root, not by whoever cloned it: the service must not run code its users can edit.
        run rsync -a --no-owner --no-group --delete --exclude=.git/ --exclude=.venv/ --exclude=__pycache__/ \
            --exclude='*.egg-info/' --exclude=build/ --exclude='.lgd-nfy*' "$SRC_TREE/" "$SRC_DIR/"
    fi
    if [ -x "$VENV/bin/python" ]; then
        note "virtualenv $VENV exists"
    else
        run python3 -m venv "$VENV"
    fi
    run "$VENV/bin/python" -m pip install --quiet --upgrade pip
    if [ "$WITH_SOLO" -eq 1 ]; then
        run "$VENV/bin/python" -m pip install --upgrade "${SRC_DIR}[pi,ai]"
    else
        run "$VENV/bin/python" -m pip install --upgrade "${SRC_DIR}[pi]"
    fi
}

install_solo() {
    [ "$WITH_SOLO" -eq 1 ] || return 0
    step "Solo partner word vectors in $STATE_DIR/partner"
    run install -d -m 0750 -o "$APP_USER" -g "$APP_USER" "$STATE_DIR"
    run runuser -u "$APP_USER" -- "$VENV/bin/duetbox" partner build --lang fr --if-missing --data-dir "$STATE_DIR"
}

install_config() {
    step "Hardware configuration $CONFIG"
    if [ -e "$CONFIG" ]; then
        note "kept the existing $CONFIG"
        if [ -x "$VENV/bin/duetbox" ] || [ "$DRY_RUN" -eq 1 ]; then
            run "$VENV/bin/duetbox" config check "$CONFIG" || note "warning: fix the lines above, then: sudo systemctl restart duetbox"
        fi
    else
        run install -D -m 0644 "$SRC_DIR/hardware/data/default.toml" "$CONFIG"
        note "edit it if your wiring differs from docs/hardware.md, then: sudo systemctl restart duetbox"
    fi
}

install_polkit() {
    step "Allow the admin menu to power off and reboot (polkit rule)"
    run install -D -m 0644 "$HERE/$POLKIT_RULE" "$POLKIT_DEST"
}

install_unit() {
    step "Install and enable the systemd unit"
    run install -D -m 0644 "$HERE/$UNIT_NAME" "$UNIT_DEST"
    run systemctl daemon-reload
    run systemctl enable "$UNIT_NAME"
}

start_or_reboot() {
    step "Start the box"
    if [ "$DRY_RUN" -eq 1 ]; then
        note "a real run asks for a reboot here when the boot configuration changed (I2C, SPI, 400 kHz,"
        note "console boot); otherwise it starts the service now:"
        run systemctl restart "$UNIT_NAME"
        note "saved games will live in $STATE_DIR; logs: journalctl -u duetbox -b"
        return
    fi
    if [ "$REBOOT_NEEDED" -eq 1 ]; then
        note "the boot configuration changed: reboot to enable it; the box then starts by itself"
        if [ -t 0 ]; then
            local answer=""
            read -r -p "    Reboot now? [y/N] " answer || true
            case "$answer" in
                y | Y | yes | YES) run systemctl reboot ;;
                *) note "later, with: sudo reboot" ;;
            esac
        else
            note "reboot with: sudo reboot"
        fi
        return
    fi
    if [ "$(tty 2>/dev/null || true)" = /dev/tty1 ]; then
        note "you are logged in on tty1, which the box takes over: reboot, or from SSH: sudo systemctl start duetbox"
        return
    fi
    if run systemctl restart "$UNIT_NAME"; then
        note "running: $(systemctl is-active "$UNIT_NAME" 2>/dev/null || true); logs: journalctl -u duetbox -b"
    else
        note "the service did not start; see: journalctl -u duetbox -b (and docs/troubleshooting.md)"
    fi
}

do_install() {
    check_system
    local before
    before=$(boot_fingerprint)
    install_packages
    enable_buses
    console_boot
    create_user
    install_app
    install_solo
    install_config
    install_polkit
    install_unit
    if [ "$(boot_fingerprint)" != "$before" ]; then
        REBOOT_NEEDED=1
    fi
    start_or_reboot
    echo
    echo "duetbox installed$([ "$DRY_RUN" -eq 1 ] && echo ' (dry run: nothing was changed)')."
}

do_uninstall() {
    check_system
    step "Stop and disable the service"
    if [ "$DRY_RUN" -eq 1 ] || [ -e "$UNIT_DEST" ]; then
        run systemctl disable --now "$UNIT_NAME"
    else
        note "no $UNIT_DEST: nothing to stop"
    fi
    step "Remove the unit and the polkit rule"
    run rm -f "$UNIT_DEST" "$POLKIT_DEST"
    run systemctl daemon-reload
    step "Remove the app and its configuration"
    run rm -rf "$PREFIX" "$ETC_DIR" /var/cache/duetbox
    step "Remove the user $APP_USER"
    if [ "$DRY_RUN" -eq 1 ] || id -u "$APP_USER" >/dev/null 2>&1; then
        run userdel "$APP_USER"
    else
        note "no user $APP_USER"
    fi
    step "Kept"
    note "$STATE_DIR: saved games, statistics and settings (delete by hand: sudo rm -rf $STATE_DIR;"
    note "a later install takes them over again)"
    note "I2C, SPI and the 400 kHz line in $BOOT_CONFIG, the Debian packages, the boot target"
    echo
    echo "duetbox removed$([ "$DRY_RUN" -eq 1 ] && echo ' (dry run: nothing was changed)')."
}

kiosk_hints() {
    cat <<EOF
duetbox kiosk hints (nothing is changed: pick what fits your box; details in docs/kiosk.md)

1. Hide the boot console and the cursor on the shared screen.
   In $BOOT_CMDLINE (a single line) replace 'console=tty1' by 'console=tty3' and add at the end:
       quiet loglevel=3 logo.nologo vt.global_cursor_default=0
   The unit already stops the login prompt on tty1 while the box runs (Conflicts=getty@tty1.service).

2. Fewer writes to the SD card: keep the journal in RAM.
   In /etc/systemd/journald.conf set 'Storage=volatile', then: sudo systemctl restart systemd-journald

3. Read-only root, so a power cut can never damage the system.
   raspi-config's overlay ('sudo raspi-config nonint do_overlayfs 0') sends every write to RAM and boots with
   'overlayroot=tmpfs'. On Bookworm that also covers every other partition, so saved games would be lost at
   each reboot. To keep them:
   a. give $STATE_DIR its own ext4 partition (e.g. label duetbox-data) with this /etc/fstab line:
          LABEL=duetbox-data  $STATE_DIR  ext4  defaults,noatime  0  2
   b. enable the overlay, then in $BOOT_CMDLINE change 'overlayroot=tmpfs' to
      'overlayroot=tmpfs:recurse=0' (only / becomes read-only; the data partition stays writable);
   c. reboot. To update or change settings later: sudo raspi-config nonint do_overlayfs 1, reboot.
   Without a data partition, the box still works read-only: games just start fresh after each reboot.

4. Shut down from the admin menu (MENU with both STOPs held 5 s, then the PIN), never by pulling the plug
   while a game is being saved; with the overlay on, pulling the plug is safe.
EOF
}

main() {
    local arg
    for arg in "$@"; do
        case "$arg" in
            -h | --help)
                usage
                exit 0
                ;;
        esac
    done
    while [ $# -gt 0 ]; do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
            --solo) WITH_SOLO=1 ;;
            --uninstall) ACTION=uninstall ;;
            --kiosk) ACTION=kiosk ;;
            -h | --help)
                usage
                exit 0
                ;;
            *)
                echo "$PROG: unknown option '$1' (see --help)" >&2
                exit 2
                ;;
        esac
        shift
    done
    case "$ACTION" in
        install) do_install ;;
        uninstall) do_uninstall ;;
        kiosk) kiosk_hints ;;
    esac
}

# Sourcing the script (tests do) defines the functions without running anything.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
