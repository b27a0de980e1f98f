#!/usr/bin/env bash
# make lock: refresh the pinned versions the installer uses on the box (constraints/<release>-arm64.txt).
# uv resolves for the box's platform (aarch64, the release's glibc and Python) from any computer; the files are
# constraints, not requirements: pip installs only what duetbox[pi] (or [pi,ai], [pi,solo]) asks for, at these
# versions. Commit the result after `make pi-check` passed with it.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UV=${UV:-$HERE/.venv/bin/uv}
[ -x "$UV" ] || { echo "lock.sh: uv not found: .venv/bin/pip install uv (or UV=/path/to/uv)" >&2; exit 1; }
cd "$HERE"
# release python glibc
while read -r release python glibc; do
    out=constraints/$release-arm64.txt
    "$UV" pip compile --quiet --no-header pyproject.toml constraints/tools.in \
        --extra pi --extra solo --extra ai \
        --python-version "$python" --python-platform "aarch64-manylinux_$glibc" \
        --no-annotate --output-file "$out.new"
    {
        echo "# duetbox: pinned versions for Raspberry Pi OS $release (64-bit, Python $python), used by"
        echo "# systemd/install.sh as pip --constraint. Refresh with: make lock (tools/lock.sh)."
        cat "$out.new"
    } >"$out"
    rm -f "$out.new"
    echo "lock.sh: $out ($(grep -c '==' "$out") pins)"
done <<'RELEASES'
bookworm 3.11 2_36
trixie 3.13 2_40
RELEASES
