"""pyproject.toml's licence in the SPDX form (PEP 639): setuptools warns about the old `license = { text = ... }`
table and stops building it after 2027-02-18.

Building needs the network (pip fetches setuptools>=77 into an isolated environment), so the build itself is
checked by hand, with the command in docs/install.md ("For maintainers"):
    git clone . /tmp/fresh && python3 -m venv /tmp/v && /tmp/v/bin/pip install -v --no-deps /tmp/fresh \\
        2>&1 | grep -ci deprecat     # 0 (main before this change: 2 SetuptoolsDeprecationWarning lines)
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def test_the_licence_is_an_spdx_expression_string() -> None:
    licence = PYPROJECT["project"]["license"]
    assert isinstance(licence, str)
    licenses = pytest.importorskip("packaging.licenses")
    assert licenses.canonicalize_license_expression(licence) == licence
    assert licence.split(" AND ")[0] == "MIT"  # our own code; the rest are the bundled fonts and pictures


def test_every_licence_file_exists_and_no_classifier_repeats_it() -> None:
    files = PYPROJECT["project"]["license-files"]
    assert "LICENSE" in files
    for name in files:
        assert (ROOT / name).is_file(), name
    assert not any(c.startswith("License ::") for c in PYPROJECT["project"].get("classifiers", []))


def test_the_build_needs_a_setuptools_that_reads_spdx_licences() -> None:
    requires = PYPROJECT["build-system"]["requires"]
    floor = next(r for r in requires if r.startswith("setuptools"))
    match = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", floor)
    assert match and int(match.group(1)) >= 77
