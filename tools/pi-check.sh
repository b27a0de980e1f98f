#!/usr/bin/env bash
# make pi-check: the real installer in emulated arm64 Debian Bookworm and Trixie (debootstrap + qemu-user-static),
# then `duetbox config check`, the scripted mock games of docs/scripts, a short emulator run (SDL dummy), the
# snapshots compared pixel by pixel with the same games on this machine, and a second installer run that must
# change nothing. Slow (tens of minutes), needs root and the network (Debian mirror, PyPI); not part of make test.
#
#   sudo tools/pi-check.sh                 both releases
#   PI_CHECK_RELEASES=trixie tools/pi-check.sh
#
# The base systems are cached in $PI_CHECK_CACHE (default /work/cache/pi-check, else ~/.cache/duetbox-pi-check);
# each run starts from a fresh copy. These are Debian systems, not Raspberry Pi OS: no archive.raspberrypi.com
# repository (so no python3-lgpio or liblgpio-dev), no /proc/device-tree (the board is injected through
# DUETBOX_DT_MODEL), raspi-config is a stub and systemd does not run (systemctl ignores start requests in a chroot).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${PI_CHECK_CACHE:-$([ -d /work/cache ] && echo /work/cache/pi-check || echo "$HOME/.cache/duetbox-pi-check")}
RELEASES=${PI_CHECK_RELEASES:-bookworm trixie}
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
BOARD_MODEL=${PI_CHECK_BOARD:-Raspberry Pi 4 Model B Rev 1.5}
HOST_PY=${PI_CHECK_HOST_PYTHON:-$REPO/.venv/bin/python}
# pip inside the systems trusts this CA bundle: the host's, so that a TLS-intercepting proxy (CI, a company
# network) works there too.
CA_BUNDLE=${PI_CHECK_CA:-/etc/ssl/certs/ca-certificates.crt}
HOST_SNAPS=$CACHE/host-snaps-${RELEASES// /-}
mkdir -p "$CACHE"

say() { echo "pi-check: $*"; }
fail() { echo "pi-check: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mounts): sudo make pi-check"
for tool in debootstrap qemu-aarch64-static rsync; do
    command -v "$tool" >/dev/null || fail "$tool missing: apt-get install debootstrap qemu-user-static binfmt-support rsync"
done

# arm64 binaries run through binfmt_misc (the F flag keeps the interpreter open, so nothing is copied into the
# chroot). Containers may need binfmt_misc mounted first.
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || fail "cannot register qemu-aarch64 with binfmt_misc here (a container without it?)"

mounted=()
cleanup() {
    local m
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        m=${mounted[i]}
        umount -l "$m" 2>/dev/null || true
    done
    mounted=()
}
trap cleanup EXIT

mount_chroot() {
    local root=$1 d
    for d in proc sys dev dev/pts; do
        mkdir -p "$root/$d"
    done
    mount -t proc proc "$root/proc" && mounted+=("$root/proc")
    mount -t sysfs sys "$root/sys" && mounted+=("$root/sys")
    mount --bind /dev "$root/dev" && mounted+=("$root/dev")
    mount -t devpts devpts "$root/dev/pts" && mounted+=("$root/dev/pts")
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}

# pip retries more than its default 5: this network resets PyPI connections now and then (seen on 2026-12-01).
in_chroot() {
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        PYGAME_HIDE_SUPPORT_PROMPT=1 PIP_CERT=/etc/pi-check/ca.crt PIP_RETRIES=20 PIP_DEFAULT_TIMEOUT=60 DUETBOX_DT_MODEL=/etc/pi-check/model DUETBOX_MEMINFO=/etc/pi-check/meminfo \
        /bin/bash -c "$*"
}

# Content, mode and owner of every file the installer may touch (hashed on the host: fast), without what
# changes on its own (logs, caches, apt lists, bytecode, /tmp, the checkout under /home).
fs_state() {
    local root=$1
    (
        cd "$root"
        find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
            -o -path ./var/log -o -path ./var/cache -o -path ./var/lib/apt/lists -o -path ./root/.cache \
            -o -path ./home -o -name __pycache__ \) -prune -o ! -name '*.pyc' -printf '%p %y %m %U %G %l\n' | sort
        find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
            -o -path ./var/log -o -path ./var/cache -o -path ./var/lib/apt/lists -o -path ./root/.cache \
            -o -path ./home -o -name __pycache__ \) -prune -o -type f ! -name '*.pyc' -print0 \
            | sort -z | xargs -0 sha256sum
    )
}

prepare_base() {
    local release=$1 base=$CACHE/$1-base
    if [ -e "$base/.pi-check-ready" ]; then
        return
    fi
    say "$release: debootstrap arm64 into $base (slow under qemu, done once)"
    rm -rf "$base"
    debootstrap --arch=arm64 --variant=minbase --include=ca-certificates,python3,sudo \
        "$release" "$base" "$MIRROR" >"$CACHE/$release-debootstrap.log" 2>&1 \
        || fail "$release: debootstrap failed (see $CACHE/$release-debootstrap.log)"
    touch "$base/.pi-check-ready"
}

# What Raspberry Pi OS Lite has and Debian's minbase lacks, as far as the installer cares.
make_pi_like() {
    local root=$1
    mkdir -p "$root/boot/firmware" "$root/etc/pi-check" "$root/var/lib/raspi-config-stub"
    printf '# Raspberry Pi OS (pi-check)\ndtparam=audio=on\ncamera_auto_detect=1\n\n[cm4]\notg_mode=1\n\n[all]\n' \
        >"$root/boot/firmware/config.txt"
    echo "console=serial0,115200 console=tty1 root=PARTUUID=0-02 rootfstype=ext4 fsck.repair=yes rootwait" \
        >"$root/boot/firmware/cmdline.txt"
    printf '%s\0' "$BOARD_MODEL" >"$root/etc/pi-check/model"
    echo "MemTotal:        3882000 kB" >"$root/etc/pi-check/meminfo"
    cat >"$root/usr/bin/raspi-config" <<'STUB'
#!/bin/sh
# pi-check's raspi-config stand-in: the nonint calls the duetbox installer makes, with Pi OS's effects on
# /boot/firmware/config.txt.
state=/var/lib/raspi-config-stub
[ "$1" = nonint ] || { echo "raspi-config stub: only nonint" >&2; exit 1; }
case "$2" in
    get_i2c | get_spi) [ -e "$state/${2#get_}" ] && echo 0 || echo 1 ;;
    do_i2c) [ -e "$state/i2c" ] || { touch "$state/i2c"; echo "dtparam=i2c_arm=on" >>/boot/firmware/config.txt; } ;;
    do_spi) [ -e "$state/spi" ] || { touch "$state/spi"; echo "dtparam=spi=on" >>/boot/firmware/config.txt; } ;;
    do_boot_behaviour) touch "$state/console" ;;
    *) echo "raspi-config stub: $2 not handled" >&2; exit 1 ;;
esac
STUB
    chmod 755 "$root/usr/bin/raspi-config"
    install_stubs "$root"
}

install_stubs() {
    local root=$1
    cp -L "$CA_BUNDLE" "$root/etc/pi-check/ca.crt"
    # systemd is not PID 1 here: unit files are handled offline (--root=/), start requests only noted.
    mkdir -p "$root/usr/local/sbin"
    cat >"$root/usr/local/sbin/systemctl" <<'STUB'
#!/bin/sh
# pi-check's systemctl stand-in: systemd does not run in this chroot.
case "$1" in
    enable | disable | is-enabled | get-default | set-default | mask | unmask) exec /usr/bin/systemctl --root=/ "$@" ;;
    daemon-reload | start | restart | stop | reboot | is-active)
        echo "pi-check: systemctl $* (systemd does not run here: nothing started)" >&2 ;;
    *) exec /usr/bin/systemctl "$@" ;;
esac
STUB
    chmod 755 "$root/usr/local/sbin/systemctl"
}

check_release() {
    local release=$1 root=$CACHE/$1-run out=$CACHE/$1-result
    prepare_base "$release"
    cleanup
    grep -q " $root/" /proc/mounts && fail "$root still has mounts"
    if [ "${PI_CHECK_REUSE:-0}" = 1 ] && [ -e "$root/etc/pi-check/model" ]; then
        # PI_CHECK_REUSE=1: go on with the system of the last run (the installer runs again on it: the
        # documented way to finish an install that stopped), e.g. after a fix to this script
        say "$release: reusing the system of the last run"
        mkdir -p "$out"
        install_stubs "$root"
        mount_chroot "$root"
    else
        say "$release: fresh copy of the base system"
        rm -rf "$root" "$out"
        mkdir -p "$out"
        cp -a "$CACHE/$release-base" "$root"
        make_pi_like "$root"
        mount_chroot "$root"
        in_chroot "$root" "apt-get update -q && apt-get install -y -q --no-install-recommends systemd" \
            >"$out/prepare.log" 2>&1 || fail "$release: installing systemd in the base failed ($out/prepare.log)"
    fi
    # the owner's checkout (functions run under `if`, where set -e does not apply: check by hand)
    mkdir -p "$root/home/pi"
    rsync -a --exclude=.git/ --exclude=.venv/ --exclude=__pycache__/ --exclude='*.egg-info/' --exclude=build/ \
        "$REPO/" "$root/home/pi/duetbox/" || fail "$release: copying the checkout failed"

    local status=ok t0
    t0=$(date +%s)
    say "$release: systemd/install.sh (first run)"
    if ! in_chroot "$root" "cd /home/pi/duetbox && systemd/install.sh </dev/null" >"$out/install-1.log" 2>&1; then
        say "$release: FAIL: the installer exited non-zero (tail of $out/install-1.log):"
        tail -n 15 "$out/install-1.log"
        echo "install: FAIL" >"$out/summary"
        return 1
    fi
    echo "install: ok ($(($(date +%s) - t0)) s)" >"$out/summary"
    fs_state "$root" >"$out/state-1.txt"
    say "$release: systemd/install.sh (second run: must change nothing)"
    if in_chroot "$root" "cd /home/pi/duetbox && systemd/install.sh </dev/null" >"$out/install-2.log" 2>&1; then
        fs_state "$root" >"$out/state-2.txt"
        if diff "$out/state-1.txt" "$out/state-2.txt" >"$out/state.diff"; then
            echo "second run: ok (nothing changed)" >>"$out/summary"
        else
            echo "second run: FAIL ($(grep -c '^[<>]' "$out/state.diff") lines differ, $out/state.diff)" >>"$out/summary"
            status=fail
        fi
    else
        echo "second run: FAIL (exit non-zero, $out/install-2.log)" >>"$out/summary"
        status=fail
    fi
    grep -A4 '^\[pi4\]' "$root/boot/firmware/config.txt" >"$out/config-txt-board.txt" || true

    if in_chroot "$root" "/opt/duetbox/venv/bin/duetbox config check /etc/duetbox/config.toml" >"$out/config-check.log" 2>&1; then
        echo "config check: ok" >>"$out/summary"
    else
        echo "config check: FAIL ($out/config-check.log)" >>"$out/summary"; status=fail
    fi
    if in_chroot "$root" "cd /tmp && /opt/duetbox/venv/bin/python -c 'import lgpio, spidev, smbus2, gpiozero, luma.oled, pygame; print(\"imports ok, lgpio\", lgpio.LGPIO_PY_VERSION if hasattr(lgpio, \"LGPIO_PY_VERSION\") else \"\")'" \
        >"$out/imports.log" 2>&1; then
        echo "pi imports (lgpio, spidev, smbus2, gpiozero, luma.oled, pygame): ok" >>"$out/summary"
    else
        echo "pi imports: FAIL ($out/imports.log)" >>"$out/summary"; status=fail
    fi
    # numpy (the `solo` extra) as on the build machine: else the menu's solo line says "numpy missing" there
    in_chroot "$root" "/opt/duetbox/venv/bin/python -m pip install --quiet --constraint /opt/duetbox/src/constraints/$release-arm64.txt numpy" \
        >"$out/numpy.log" 2>&1 || { echo "numpy (solo extra): FAIL ($out/numpy.log)" >>"$out/summary"; status=fail; }
    in_chroot "$root" "/opt/duetbox/venv/bin/python -m pip freeze" >"$out/pip-freeze.txt" 2>&1 || true
    say "$release: scripted mock games"
    rm -rf "$root/tmp/snaps"
    if in_chroot "$root" "cd /tmp && /opt/duetbox/venv/bin/python /opt/duetbox/src/tools/pi_check_snapshots.py run /opt/duetbox/src/docs/scripts /tmp/snaps" \
        >"$out/mock.log" 2>&1; then
        echo "scripted mock games: ok ($(grep -c 'exit 0' "$out/mock.log") scripts)" >>"$out/summary"
    else
        echo "scripted mock games: FAIL ($out/mock.log)" >>"$out/summary"; status=fail
    fi
    rm -rf "$out/snaps"
    if ! cp -a "$root/tmp/snaps" "$out/snaps" 2>/dev/null; then
        mkdir -p "$out/snaps"
    fi
    say "$release: emulator run (SDL dummy)"
    # --script needs the mock's fake clock: the emulator runs on its own for 60 s, then SIGTERM must end it cleanly
    if in_chroot "$root" "cd /tmp && rm -rf /tmp/emu && timeout --preserve-status -s TERM 60 /opt/duetbox/venv/bin/duetbox run --hardware emulator --data-dir /tmp/emu --size 960x540" \
        >"$out/emulator.log" 2>&1; then
        echo "emulator run: ok" >>"$out/summary"
    else
        echo "emulator run: FAIL ($out/emulator.log)" >>"$out/summary"; status=fail
    fi
    if "$HOST_PY" "$REPO/tools/pi_check_snapshots.py" compare "$HOST_SNAPS" "$out/snaps" >"$out/compare.log" 2>&1; then
        echo "snapshots: $(tail -n 1 "$out/compare.log" | sed 's/^pi-check: //')" >>"$out/summary"
    else
        echo "snapshots: FAIL: $(tail -n 1 "$out/compare.log" | sed 's/^pi-check: //') ($out/compare.log)" >>"$out/summary"
        status=fail
    fi
    cleanup
    [ "$status" = ok ]
}

say "host: scripted mock games on $(uname -m) with $HOST_PY"
rm -rf "$HOST_SNAPS"
(cd "$REPO" && SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 \
    "$HOST_PY" tools/pi_check_snapshots.py run docs/scripts "$HOST_SNAPS") >"$HOST_SNAPS.log" 2>&1 \
    || fail "the scripted games fail on this machine ($HOST_SNAPS.log)"

overall=0
for release in $RELEASES; do
    if check_release "$release"; then
        say "$release: PASS"
    else
        say "$release: FAIL"
        overall=1
    fi
    sed "s/^/    /" "$CACHE/$release-result/summary" 2>/dev/null || true
done
say "$(date -u +%Y-%m-%d): $([ "$overall" -eq 0 ] && echo PASS || echo FAIL) ($RELEASES)"
exit "$overall"
