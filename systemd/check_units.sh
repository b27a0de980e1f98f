#!/usr/bin/env bash
# Check systemd unit files offline: `systemd/check_units.sh [UNIT_FILE...]` (default: systemd/*.service).
#
# 1. `systemd-analyze verify` must print nothing. It exits 0 even on an unknown key or a bad value, so any
#    output at all counts as a failure. ExecStart's program does not exist on a build machine, so a copy of the
#    unit with the program swapped for python3 is verified (same file name, so the unit name is unchanged).
# 2. `systemd-analyze security --offline=yes` must rate the unit at most MAX_EXPOSURE (default 2.0).
# Exit status: 0 all good, 1 a check failed, 2 systemd-analyze is missing or a file is unreadable.
set -euo pipefail

MAX_EXPOSURE=${MAX_EXPOSURE:-2.0}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "check_units.sh: systemd-analyze not found (apt-get install systemd)" >&2
    exit 2
fi
stand_in=$(command -v python3 || echo /bin/sh)

units=("$@")
if [ ${#units[@]} -eq 0 ]; then
    units=("$here"/*.service)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# security --threshold takes the exposure times ten, as an integer (2.0 -> 20).
threshold=$(awk -v x="$MAX_EXPOSURE" 'BEGIN { printf "%d", x * 10 + 0.5 }')

failed=0
for unit in "${units[@]}"; do
    if [ ! -r "$unit" ]; then
        echo "check_units.sh: cannot read $unit" >&2
        exit 2
    fi
    name=$(basename "$unit")
    copy="$work/$name"
    # Swap only the program of ExecStart=, keep its arguments (so ${STATE_DIRECTORY} etc. are still checked).
    sed -E "s|^(ExecStart=[-@:+!]*)[^[:space:]]+|\1$stand_in|" "$unit" >"$copy"

    out=$(systemd-analyze verify "$copy" 2>&1 || true)
    if [ -n "$out" ]; then
        echo "FAIL verify $name:"
        printf '%s\n' "$out" | sed "s|$work/||g; s|^|    |"
        failed=1
    else
        echo "ok   verify $name: no output"
    fi

    sec_rc=0
    sec=$(systemd-analyze security --offline=yes --threshold="$threshold" "$copy" 2>&1) || sec_rc=$?
    overall=$(printf '%s\n' "$sec" | grep -o 'Overall exposure level for [^:]*: [0-9.]*' | tail -n 1 || true)
    if [ "$sec_rc" -ne 0 ] || [ -z "$overall" ]; then
        echo "FAIL security $name: ${overall:-no overall exposure printed} (must be <= $MAX_EXPOSURE)"
        failed=1
    else
        echo "ok   security $name: ${overall##*: } (<= $MAX_EXPOSURE)"
    fi
done
exit "$failed"
