"""engine.snowball: one language's Snowball stemmer without importing the thirty (issue 26: start-up memory)."""

from __future__ import annotations

import json
import subprocess
import sys

import snowballstemmer

from engine import snowball
from engine.languages import REGISTRY

WORDS = ("chevaux", "continuellement", "knives", "running", "happiness", "florile", "oamenilor", "Häuser",
         "Freundlichkeit", "uomini", "velocemente", "nationalisation", "a", "", "ÉLÉPHANTS")


def test_the_stemmer_alone_stems_as_the_package_does() -> None:
    # in a process of its own: once the package is imported (as here) engine.snowball uses it
    code = ("import json, sys\nfrom engine import snowball\nwords = json.loads(sys.argv[1])\n"
            "print(json.dumps({a: [type(s).__module__] + [s.stemWord(w) for w in words]\n"
            "                  for a in sys.argv[2:] for s in [snowball.stemmer(a)]}))")
    algorithms = [language.stemmer for language in REGISTRY]
    out = subprocess.run([sys.executable, "-c", code, json.dumps(WORDS), *algorithms], capture_output=True,
                         text=True, check=True).stdout
    got = json.loads(out)
    for algorithm in algorithms:
        module, *stems = got[algorithm]
        assert module == f"engine._snowball_one.{algorithm}_stemmer"
        package = snowballstemmer.stemmer(algorithm)
        assert stems == [package.stemWord(w) for w in WORDS]
    assert snowball.stemmer("french").stemWord("chevaux") == "cheval"  # the package's, here


def test_the_clue_checker_imports_one_stemmer_not_the_package() -> None:
    code = ("import sys\nfrom engine import clues\nclues.related('cheval', 'chevaux', 'fr')\n"
            "print(sorted(m for m in sys.modules if 'stemmer' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "'snowballstemmer'" not in out and "engine._snowball_one.french_stemmer" in out
