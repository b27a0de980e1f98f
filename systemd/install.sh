#!/usr/bin/env bash
# duetbox installer for Raspberry Pi OS (64-bit) Trixie or Bookworm, Lite or Desktop. Usage: see --help, or
# docs/install.md.
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

# DUETBOX_PREFIX, DUETBOX_CONFIG, DUETBOX_BOOT_CONFIG, DUETBOX_BOOT_CMDLINE, DUETBOX_STATE_DIR,
# DUETBOX_INSTALL_LOG, DUETBOX_OS_RELEASE, DUETBOX_DT_MODEL, DUETBOX_MEMINFO and DUETBOX_ASOUND_CONF move those
# files elsewhere: for tests only, the unit file expects the defaults.
APP_USER=duetbox
DEVICE_GROUPS=(gpio i2c spi video input render audio)
PREFIX=${DUETBOX_PREFIX:-/opt/duetbox}
SRC_DIR=$PREFIX/src
VENV=$PREFIX/venv
ETC_DIR=/etc/duetbox
CONFIG=${DUETBOX_CONFIG:-$ETC_DIR/config.toml}
STATE_DIR=${DUETBOX_STATE_DIR:-/var/lib/duetbox}
INSTALL_LOG=${DUETBOX_INSTALL_LOG:-/var/log/duetbox-install.log}
OS_RELEASE=${DUETBOX_OS_RELEASE:-/etc/os-release}
DT_MODEL=${DUETBOX_DT_MODEL:-/proc/device-tree/model}
MEMINFO=${DUETBOX_MEMINFO:-/proc/meminfo}
VERSION_FILE=$PREFIX/VERSION
PREVIOUS=$PREFIX/previous
WITH_SOLO=0
# The releases this installer knows, with the Python they ship. Anything else is refused with what to flash.
SUPPORTED_RELEASES=(trixie bookworm)
FLASH_THIS="flash Raspberry Pi OS Lite (64-bit), Trixie or Bookworm, with Raspberry Pi Imager"
# `duetbox partner build` (--solo) peaks at about 280 MB (docs/install.md): a board with 1 GB or more builds the
# vectors itself, a 512 MB one (Zero 2 W) gets them from another computer ("Solo on a small board").
SOLO_BUILD_MIN_KB=800000
UNIT_NAME=duetbox.service
UNIT_DEST=/etc/systemd/system/$UNIT_NAME
POLKIT_RULE=50-duetbox-power.rules
POLKIT_DEST=/etc/polkit-1/rules.d/$POLKIT_RULE
# --kiosk: the console locked against a guest's keyboard (undone by --uninstall)
KIOSK_SYSCTL=${DUETBOX_KIOSK_SYSCTL:-/etc/sysctl.d/90-duetbox-kiosk.conf}
KIOSK_LOGIND=${DUETBOX_KIOSK_LOGIND:-/etc/systemd/logind.conf.d/90-duetbox-kiosk.conf}
KIOSK_UNIT_NAME=duetbox-kiosk-keys.service
KIOSK_UNIT=/etc/systemd/system/$KIOSK_UNIT_NAME
I2C_BAUDRATE_LINE=dtparam=i2c_arm_baudrate=400000
# --audio: where the cues and speech go. i2s: the MAX98357A amplifier of docs/build.md (no-sdmode: without it the
# driver takes GPIO4, seat A's "up", for the chip's shutdown pin); jack: a Pi 4's 3.5 mm jack; none: left alone.
AUDIO=i2s
AMP_OVERLAY_LINE=dtoverlay=max98357a,no-sdmode
ASOUND_CONF=${DUETBOX_ASOUND_CONF:-/etc/asound.conf}
ASOUND_MARK="# duetbox: the box's sound output (systemd/install.sh --audio; docs/hardware.md, Sound)"
# python3-dev and build-essential: spidev has no wheel and is compiled at install. libgbm1, libegl1, libgles2,
# libdrm2, libgl1-mesa-dri and libudev1: what pygame-ce's SDL loads for KMSDRM. i2c-tools: i2cdetect.
# espeak-ng: the spoken announcements (the app hides that option without it).
# Per release below: Trixie renamed libasound2 (64-bit time_t) and needs swig to build lgpio (no wheel for its
# Python 3.13).
APT_PACKAGES=(python3 python3-venv python3-pip python3-dev build-essential git rsync i2c-tools polkitd
    libgbm1 libegl1 libgles2 libdrm2 libgl1-mesa-dri libudev1 espeak-ng)
RELEASE=unknown
ARCH=unknown
BOARD=""

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
BACKED_UP=0
OLD_VERSION=unknown
ACTION=install
KIOSK=0
STEP=0
STEP_TITLE="start"
REBOOT_NEEDED=0

usage() {
    cat <<EOF
usage: sudo systemd/install.sh [--dry-run] [--solo] [--audio i2s|jack|none] [--upgrade | --uninstall | --kiosk]

Installs duetbox on Raspberry Pi OS (64-bit) Trixie or Bookworm, Lite or Desktop, as a service that starts
at boot: Debian packages, I2C at 400 kHz and SPI, the LED ring's core clock on a Pi 3, 4 or Zero 2 W, the
sound output (the I2S amplifier's overlay and /etc/asound.conf), the serial port off (GPIO14/15 are buttons), the
user $APP_USER, a virtualenv in $PREFIX with the app and the pinned versions of constraints/,
$CONFIG (an existing one is kept), a polkit rule so the admin menu may power off and
reboot, and the systemd unit $UNIT_NAME. Asks for a reboot when the boot configuration changed.
Safe to run again. Everything it prints also goes to $INSTALL_LOG.

options:
  --dry-run     print every step without changing anything (no root needed)
  --audio OUT   where the sound goes: i2s (default: the MAX98357A amplifier, dtoverlay=max98357a),
                jack (a Pi 4's 3.5 mm jack), none (leave the sound configuration alone)
  --solo        also install the solo partner: the 'ai' extra (a large download) and its French word
                vectors, exported once into $STATE_DIR/partner (several minutes on a Pi)
  --upgrade     after 'git pull': back up the installed version and the saved games, install this one,
                and roll back to the backup if the new version does not start (games, settings and
                the PIN in $STATE_DIR and $CONFIG are kept either way)
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
    if [ "$BACKED_UP" -eq 1 ]; then
        BACKED_UP=0
        rollback || echo "$PROG: the rollback failed too: the backup is in $PREVIOUS (docs/install.md)" >&2
        echo "$PROG: the upgrade failed and $OLD_VERSION is back; fix the cause and run it again." >&2
    else
        echo "$PROG: fix the cause and run it again; the steps already done are skipped or repeated safely." >&2
    fi
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

# What a real run cannot support: one line saying what to do instead. A dry run only says it and goes on.
refuse() {
    if [ "$DRY_RUN" -eq 1 ]; then
        note "a real run stops here: $*"
    else
        die "$*"
    fi
}

# The release codename (bookworm, trixie...) from os-release.
detect_release() {
    local codename=""
    if [ -r "$OS_RELEASE" ]; then
        # shellcheck source=/dev/null
        codename=$(. "$OS_RELEASE" && echo "${VERSION_CODENAME:-}")
    fi
    echo "${codename:-unknown}"
}

# The userland's architecture: a Pi 4 or 5 running the 32-bit system has a 64-bit kernel, so uname -m says
# aarch64 while every package (and pip's wheels) is armhf. dpkg tells the truth.
detect_arch() {
    if have dpkg; then
        dpkg --print-architecture 2>/dev/null || echo unknown
    else
        echo unknown
    fi
}

# The board, e.g. "Raspberry Pi 4 Model B Rev 1.4" (empty when there is no device tree: a container, a PC).
detect_board() {
    if [ -r "$DT_MODEL" ]; then
        tr -d '\0' <"$DT_MODEL"
    fi
}

# Memory in kB (MemTotal), 0 when unknown.
memory_kb() {
    local kb=""
    if [ -r "$MEMINFO" ]; then
        kb=$(awk '/^MemTotal:/ {print $2}' "$MEMINFO")
    fi
    echo "${kb:-0}"
}

check_system() {
    step "Check the system"
    if [ "$DRY_RUN" -eq 1 ]; then
        note "dry run: nothing is changed; the commands below are what a real run would execute"
    elif [ "$(id -u)" -ne 0 ]; then
        die "must run as root: sudo systemd/install.sh (or try --dry-run)"
    fi
    RELEASE=$(detect_release)
    ARCH=$(detect_arch)
    BOARD=$(detect_board)
    note "OS: $RELEASE, architecture: $ARCH (userland), board: ${BOARD:-unknown}, source: $SRC_TREE"
    if [ "$ACTION" = uninstall ]; then
        return
    fi
    case "$ARCH" in
        arm64) ;;
        armhf | armel)
            refuse "this is a 32-bit system ($ARCH), which gets no ready-built Pillow or pygame-ce: $FLASH_THIS" ;;
        *)
            refuse "architecture $ARCH is not a Raspberry Pi OS (64-bit) system: $FLASH_THIS (on a computer, use make run)" ;;
    esac
    case "$RELEASE" in
        bookworm) note "Bookworm: Python 3.11; every package of the box comes as a wheel but spidev (built)" ;;
        trixie) note "Trixie: Python 3.13; lgpio has no wheel for it and is built from its source with swig" ;;
        buster | bullseye | stretch | jessie)
            refuse "Raspberry Pi OS $RELEASE is too old (its Python is older than 3.11): $FLASH_THIS" ;;
        *)
            refuse "release $RELEASE is not one this installer knows (${SUPPORTED_RELEASES[*]}): $FLASH_THIS" ;;
    esac
    if [ "$RELEASE" = trixie ]; then
        APT_PACKAGES+=(libasound2t64 swig)
    else
        APT_PACKAGES+=(libasound2)
    fi
    if ! have raspi-config; then
        if [ "$DRY_RUN" -eq 1 ]; then
            note "raspi-config not found (not a Raspberry Pi OS system): fine for a dry run"
        else
            die "raspi-config not found: this installer is for Raspberry Pi OS; $FLASH_THIS"
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

# The core_freq lines the WS2812 ring over SPI needs, per board family: on a Pi 3 and a Zero 2 W (BCM2837)
# the SPI clock follows the core clock, which changes with the CPU load; on a Pi 4 dynamic clocking must be
# off. A Pi 5's SPI is on the RP1 chip with its own clock: nothing to set. Printed as "filter line line...".
board_settings() {
    case "$1" in
        *"Raspberry Pi 5"* | *"Compute Module 5"*) echo "" ;; # also the Pi 500
        *"Raspberry Pi 4"* | *"Compute Module 4"*) echo "[pi4] core_freq=500 core_freq_min=500" ;; # and the 400
        *"Zero 2 W"*) echo "[pi02] core_freq=250" ;;
        *"Raspberry Pi 3"* | *"Compute Module 3"*) echo "[pi3] core_freq=250" ;;
        *) echo "?" ;;
    esac
}

# Append lines under a config.txt filter (so the card still boots right in another board), then [all] again.
append_board_block() {
    local file=$1 filter=$2 last_char
    shift 2
    last_char=$(tail -c 1 "$file")
    {
        [ -z "$last_char" ] || echo
        echo "$filter"
        echo "# duetbox: a fixed core clock keeps the LED ring's SPI timing (docs/hardware.md)"
        printf '%s\n' "$@"
        echo "[all]"
    } >>"$file"
}

ring_settings() {
    step "Board settings for the LED ring ($BOOT_CONFIG)"
    local wanted filter
    if [ -r "$CONFIG" ] && grep -qE '^[[:space:]]*driver[[:space:]]*=[[:space:]]*"leds"' "$CONFIG"; then
        note "the ring uses the ws2812-pio driver (driver = \"leds\"): no core clock to fix"
        return
    fi
    wanted=$(board_settings "$BOARD")
    if [ -z "$BOARD" ]; then
        note "no board model in $DT_MODEL (not a Raspberry Pi?): nothing set; see docs/hardware.md"
        return
    fi
    if [ "$wanted" = "?" ]; then
        note "$BOARD: not a board duetbox knows; nothing set (see docs/hardware.md, Board settings)"
        return
    fi
    if [ -z "$wanted" ]; then
        note "$BOARD: the SPI clock does not follow the core clock: nothing to set"
        return
    fi
    local current=""
    if [ -r "$BOOT_CONFIG" ]; then
        current=$(grep -E '^[[:space:]]*core_freq=' "$BOOT_CONFIG" | tail -n 1 || true)
    fi
    if [ -n "$current" ]; then
        note "already set: $current (left as it is)"
        return
    fi
    read -r filter wanted <<<"$wanted"
    # shellcheck disable=SC2086 # the settings are words on purpose
    run append_board_block "$BOOT_CONFIG" "$filter" $wanted
}

# /etc/asound.conf for an ALSA card: the default output through a dmix mixer (a cue and speech at once).
asound_conf_for() {
    cat <<ASOUND
$ASOUND_MARK
pcm.!default {
    type plug
    slave.pcm "duetbox_mix"
}
pcm.duetbox_mix {
    type dmix
    ipc_key 4242
    ipc_perm 0666
    slave {
        pcm "hw:CARD=$1,DEV=0"
        channels 2
    }
}
ctl.!default {
    type hw
    card $1
}
ASOUND
}

write_file() {
    printf '%s\n' "$2" >"$1"
}

audio_settings() {
    step "Sound output (--audio $AUDIO)"
    local card current=""
    case "$AUDIO" in
        none)
            note "--audio none: the sound configuration is left as it is"
            return
            ;;
        jack)
            case "$BOARD" in
                *"Raspberry Pi 5"* | *"Compute Module 5"*) # also the Pi 500
                    refuse "a Pi 5 has no 3.5 mm jack: fit the MAX98357A amplifier and use --audio i2s (docs/hardware.md, Sound)"
                    return
                    ;;
            esac
            card=Headphones
            ;;
        *)
            if [ -r "$BOOT_CONFIG" ]; then
                current=$(grep -E '^[[:space:]]*dtoverlay=(max98357a|hifiberry-dac)' "$BOOT_CONFIG" | tail -n 1 || true)
            fi
            if [ -n "$current" ]; then
                note "already set: $current (left as it is)"
            else
                run append_boot_setting "$BOOT_CONFIG" "$AMP_OVERLAY_LINE"
            fi
            card=MAX98357A
            case "$current" in *hifiberry-dac*) card=sndrpihifiberry ;; esac
            ;;
    esac
    local wanted
    wanted=$(asound_conf_for "$card")
    if [ -e "$ASOUND_CONF" ] && [ "$(cat "$ASOUND_CONF")" = "$wanted" ]; then
        note "$ASOUND_CONF already makes ALSA card $card the default output"
    elif [ -e "$ASOUND_CONF" ] && ! grep -qF "$ASOUND_MARK" "$ASOUND_CONF"; then
        note "kept your own $ASOUND_CONF; the box's sound goes to its default output (docs/hardware.md, Sound)"
    else
        note "ALSA card $card becomes the default output (the game's cues and espeak-ng both use it)"
        run write_file "$ASOUND_CONF" "$wanted"
    fi
}

# Seat B's OK and STOP are on GPIO14 and GPIO15, the serial port's pins: the console and the UART must be off.
serial_off() {
    step "Free GPIO14 and GPIO15 for seat B's OK and STOP (serial port off)"
    if have raspi-config && [ "$(raspi-config nonint get_serial_cons 2>/dev/null || echo 1)" = 0 ]; then
        run raspi-config nonint do_serial_cons 1
    else
        note "no console on the serial port"
    fi
    if have raspi-config && [ "$(raspi-config nonint get_serial_hw 2>/dev/null || echo 1)" = 0 ]; then
        run raspi-config nonint do_serial_hw 1
    else
        note "the serial port is off: GPIO14 and GPIO15 are plain inputs"
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

# The pinned versions for this release (make lock refreshes them), as pip options.
constraints_file() {
    echo "$SRC_DIR/constraints/$RELEASE-arm64.txt"
}

write_version() {
    local file=$1 text=$2
    printf '%s\n' "$text" >"$file"
}

# The installed version, e.g. "0.1.0 (git 1a2b3c4)": shown in the admin screen and by duetbox --version.
source_version() {
    local version commit
    version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC_TREE/pyproject.toml" | head -n 1)
    commit=$(git -C "$SRC_TREE" rev-parse --short HEAD 2>/dev/null || true)
    echo "${version:-unknown}${commit:+ (git $commit)}"
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
    local pins extras="pi" build_env=()
    pins=$(constraints_file)
    if [ ! -e "$SRC_TREE/constraints/$RELEASE-arm64.txt" ]; then
        refuse "no pinned versions for $RELEASE in constraints/ (make lock writes them)"
    fi
    if [ "$WITH_SOLO" -eq 1 ]; then
        if [ "$(memory_kb)" -ge "$SOLO_BUILD_MIN_KB" ]; then
            extras="pi,ai"
        else
            extras="pi,solo"  # numpy to play; the vectors are built on another computer
        fi
    fi
    if [ "$RELEASE" = trixie ]; then
        # lgpio's source distribution: PYPI=1 builds it statically from its bundled C sources (swig, no
        # liblgpio-dev needed, so it works with and without the archive.raspberrypi.com repository).
        build_env=(env PYPI=1)
    fi
    # Installed already from exactly these sources, pins and extras: nothing to do (a second run changes nothing
    # and needs no network). The stamp is written only after pip succeeded.
    local stamp="$VENV/.duetbox-source" wanted=""
    if [ -d "$SRC_DIR" ] && [ -r "$pins" ] && command -v find >/dev/null && command -v sha256sum >/dev/null; then
        wanted=$(source_fingerprint "$SRC_DIR" "$pins" "$extras")
    fi
    if [ -n "$wanted" ] && [ -r "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -x "$VENV/bin/duetbox" ]; then
        note "$PREFIX already holds these sources with these pins ([$extras]): pip not run"
    else
        run "${build_env[@]}" "$VENV/bin/python" -m pip install --quiet --constraint "$pins" pip
        run "${build_env[@]}" "$VENV/bin/python" -m pip install --upgrade --constraint "$pins" "${SRC_DIR}[$extras]"
        if [ -n "$wanted" ] && [ -d "$VENV" ]; then
            run write_version "$stamp" "$wanted"
        fi
    fi
    run write_version "$VERSION_FILE" "$(source_version)"
}

# One line that changes when anything pip would install changes: every file of the copied sources (names and
# contents), the pins file, the extras and the venv's Python.
source_fingerprint() {
    local tree=$1 pins=$2 extras=$3
    {
        # what pip's build writes into the tree (egg-info, build/) and rsync keeps out is left out here too
        (cd "$tree" && find . -type f ! -path '*/__pycache__/*' ! -name '*.pyc' ! -path './build/*' \
            ! -path '*.egg-info/*' ! -name '.lgd-nfy*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
        sha256sum <"$pins"
        echo "extras=$extras"
        "$VENV/bin/python" -c 'import sys; print(sys.version)' 2>/dev/null || true
    } | sha256sum | cut -d' ' -f1
}

install_solo() {
    [ "$WITH_SOLO" -eq 1 ] || return 0
    step "Solo partner word vectors in $STATE_DIR/partner"
    local kb
    kb=$(memory_kb)
    if [ "$kb" -lt "$SOLO_BUILD_MIN_KB" ]; then
        note "${BOARD:-this board} has $((kb / 1024)) MB of memory: building the vectors needs about 280 MB, so this"
        note "box does not build them. Build them once on any computer with a checkout and copy them here:"
        note "    make partner && tar -C ~/.local/share/duetbox -c partner | ssh pi@duetbox.local \\"
        note "        'sudo tar -C $STATE_DIR -x --no-same-owner && sudo chown -R $APP_USER: $STATE_DIR/partner'"
        note "(docs/install.md, Solo on a small board). Boards with 1 GB or more build them here."
        return
    fi
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
    ring_settings
    audio_settings
    serial_off
    console_boot
    create_user
    install_app
    install_solo
    install_config
    install_polkit
    install_unit
    if [ "$KIOSK" -eq 1 ]; then
        install_kiosk
    fi
    if [ "$(boot_fingerprint)" != "$before" ]; then
        REBOOT_NEEDED=1
    fi
    start_or_reboot
    echo
    [ "$DRY_RUN" -eq 1 ] || note "log of this run: $INSTALL_LOG"
    echo "duetbox installed$([ "$DRY_RUN" -eq 1 ] && echo ' (dry run: nothing was changed)')."
}

backup_installed() {
    step "Back up the installed version and the saved games ($PREVIOUS)"
    if [ "$DRY_RUN" -eq 0 ] && [ ! -x "$VENV/bin/python" ]; then
        die "nothing installed in $PREFIX to upgrade: run sudo systemd/install.sh first"
    fi
    OLD_VERSION=$(cat "$VERSION_FILE" 2>/dev/null || echo "the installed version")
    note "installed: $OLD_VERSION; this checkout: $(source_version)"
    run systemctl stop "$UNIT_NAME"
    run rm -rf "$PREVIOUS"
    run install -d -m 0755 "$PREVIOUS"
    run cp -a "$SRC_DIR" "$VENV" "$PREVIOUS/"
    if [ "$DRY_RUN" -eq 1 ] || [ -e "$VERSION_FILE" ]; then
        run cp -a "$VERSION_FILE" "$PREVIOUS/"
    fi
    # The saved games, settings, sheets and PIN (SQLite, the service stopped); the word vectors are only read.
    if [ "$DRY_RUN" -eq 1 ] || [ -d "$STATE_DIR" ]; then
        run rsync -a --delete --exclude=partner/ "$STATE_DIR/" "$PREVIOUS/state/"
    fi
    BACKED_UP=1
}

rollback() {
    step "Roll back to $OLD_VERSION"
    run systemctl stop "$UNIT_NAME" || true
    run rm -rf "$SRC_DIR" "$VENV"
    run mv "$PREVIOUS/src" "$SRC_DIR"
    run mv "$PREVIOUS/venv" "$VENV"
    if [ "$DRY_RUN" -eq 1 ] || [ -e "$PREVIOUS/VERSION" ]; then
        run mv "$PREVIOUS/VERSION" "$VERSION_FILE"
    fi
    if [ "$DRY_RUN" -eq 1 ] || [ -d "$PREVIOUS/state" ]; then
        run rsync -a --delete --exclude=partner/ "$PREVIOUS/state/" "$STATE_DIR/"
    fi
    if run systemctl restart "$UNIT_NAME"; then
        note "$OLD_VERSION runs again"
    else
        note "$OLD_VERSION does not start either: see journalctl -u duetbox -b"
    fi
}

start_upgraded() {
    step "Start the new version (back to the backup if it does not start)"
    # Type=notify: restart returns once the box has sent READY=1, or fails when it exits or times out.
    if run systemctl restart "$UNIT_NAME" && run systemctl is-active --quiet "$UNIT_NAME"; then
        BACKED_UP=0
        run rm -rf "$PREVIOUS"
        note "upgraded from $OLD_VERSION to $(source_version)"
        if [ "$REBOOT_NEEDED" -eq 1 ]; then
            note "the boot configuration changed too: reboot when convenient (sudo reboot)"
        fi
        return 0
    fi
    BACKED_UP=0
    note "the new version did not start (journalctl -u duetbox -b says why)"
    rollback
    die "upgrade to $(source_version) failed: rolled back to $OLD_VERSION, saved games restored"
}

do_upgrade() {
    check_system
    local before
    before=$(boot_fingerprint)
    backup_installed
    install_packages
    enable_buses
    ring_settings
    audio_settings
    serial_off
    console_boot
    create_user
    install_app
    install_solo
    install_config
    install_polkit
    install_unit
    if [ "$KIOSK" -eq 1 ]; then
        install_kiosk
    fi
    if [ "$(boot_fingerprint)" != "$before" ]; then
        REBOOT_NEEDED=1
    fi
    start_upgraded
    echo
    echo "duetbox upgraded$([ "$DRY_RUN" -eq 1 ] && echo ' (dry run: nothing was changed)')."
}

# Everything printed from here on also goes to the install log (real runs as root only).
start_log() {
    [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -eq 0 ] || return 0
    mkdir -p "$(dirname "$INSTALL_LOG")"
    exec > >(tee -a "$INSTALL_LOG") 2> >(tee -a "$INSTALL_LOG" >&2)
    echo "=== $(date -u +%Y-%m-%dT%H:%M:%SZ) $PROG $* ($(source_version), from $SRC_TREE)"
}

do_uninstall() {
    check_system
    step "Stop and disable the service"
    if [ "$DRY_RUN" -eq 1 ] || [ -e "$UNIT_DEST" ]; then
        run systemctl disable --now "$UNIT_NAME"
    else
        note "no $UNIT_DEST: nothing to stop"
    fi
    uninstall_kiosk
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

# --kiosk: a guest at the box's keyboard cannot reboot it (Ctrl+Alt+Del), reach the kernel (SysRq) or switch
# to a console with a login prompt (Alt+Fn, Ctrl+Alt+Fn, Alt+arrows; no other consoles get a getty).
install_kiosk() {
    step "Kiosk: Ctrl+Alt+Del masked, SysRq off, no console switching"
    run systemctl mask ctrl-alt-del.target
    run install -D -m 0644 "$HERE/kiosk/90-duetbox-kiosk-sysctl.conf" "$KIOSK_SYSCTL"
    if [ "$DRY_RUN" -eq 1 ] || have sysctl; then
        run sysctl -q -p "$KIOSK_SYSCTL" || note "SysRq goes off at the next boot"
    fi
    run install -D -m 0644 "$HERE/kiosk/90-duetbox-kiosk-logind.conf" "$KIOSK_LOGIND"
    run install -D -m 0644 "$HERE/kiosk/kiosk-keys.map" "$ETC_DIR/kiosk-keys.map"
    run install -D -m 0644 "$HERE/kiosk/$KIOSK_UNIT_NAME" "$KIOSK_UNIT"
    run systemctl daemon-reload
    run systemctl enable "$KIOSK_UNIT_NAME"
}

uninstall_kiosk() {
    step "Undo the kiosk lock (if it was installed)"
    if [ "$DRY_RUN" -eq 1 ] || [ -e "$KIOSK_UNIT" ] || [ -e "$KIOSK_SYSCTL" ] || [ -e "$KIOSK_LOGIND" ]; then
        run systemctl unmask ctrl-alt-del.target
        run systemctl disable "$KIOSK_UNIT_NAME" || true
        run rm -f "$KIOSK_UNIT" "$KIOSK_SYSCTL" "$KIOSK_LOGIND"
        note "SysRq and console switching come back at the next boot"
    else
        note "no kiosk lock installed"
    fi
}

kiosk_hints() {
    cat <<EOF
duetbox kiosk hints (these are not done for you: pick what fits your box; details in docs/kiosk.md)

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

ARGS=()

main() {
    local arg
    ARGS=("$@")
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
            --audio)
                case "${2:-}" in
                    i2s | jack | none) AUDIO=$2 ;;
                    *)
                        echo "$PROG: --audio takes i2s, jack or none (see --help)" >&2
                        exit 2
                        ;;
                esac
                shift
                ;;
            --upgrade) ACTION=upgrade ;;
            --uninstall) ACTION=uninstall ;;
            --kiosk) KIOSK=1 ;;
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
    start_log "${ARGS[@]}"
    case "$ACTION" in
        install) do_install ;;
        upgrade) do_upgrade ;;
        uninstall) do_uninstall ;;
    esac
    if [ "$KIOSK" -eq 1 ] && [ "$ACTION" != uninstall ]; then
        echo
        kiosk_hints
    fi
}

# Sourcing the script (tests do) defines the functions without running anything.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
