"""Spoken announcements for a player who cannot read the screen well (offline, with espeak-ng).

``Speaker`` starts ``espeak-ng`` as a separate process and returns at once, so the game loop never waits
for speech; a new utterance stops the one still playing. Without espeak-ng on PATH ``available()`` is False
and the app hides the option. A key is private: ``say_key`` only speaks when the output is set to
headphones AND headphones are detected (a USB or Bluetooth audio card, ``find_headphones``), and then to that
card's own ALSA device: never through a speaker the whole table hears.

The texts are built by pure functions (``clue_announcement``, ``key_announcement``) in French (default),
English and Romanian.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from device.i18n import Translator
from engine.languages import REGISTRY

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
OUTPUTS: tuple[str, ...] = ("speaker", "headphones")
#: espeak-ng voice per language (engine.languages; Debian's espeak-ng-data ships all five).
VOICES: dict[str, str] = {lang.code: lang.voice for lang in REGISTRY}
LANGUAGES: tuple[str, ...] = tuple(VOICES)  # every interface language has a voice
#: Words per minute: a little slower than espeak-ng's 175, clearer over a small speaker.
DEFAULT_RATE = 150
#: Longest text handed to espeak-ng; more would be a bug upstream, not something to read out.
MAX_TEXT = 2000

Output = Literal["speaker", "headphones"]


class Process(Protocol):
    """The part of ``subprocess.Popen`` the speaker uses."""

    def poll(self) -> int | None: ...

    def terminate(self) -> None: ...


Runner = Callable[[list[str]], Process]

#: Where ALSA lists the sound cards (injectable for tests).
ASOUND_CARDS = "/proc/asound/cards"


def find_headphones(cards_path: str = ASOUND_CARDS) -> str | None:
    """The ALSA device of plugged-in headphones, or None.

    Nothing tells what is plugged into the Pi's own 3.5 mm jack or HDMI (no jack detection): those are the table's
    speaker. Headphones are a USB headset or USB sound card (ALSA driver ``USB-Audio``) or a Bluetooth headset
    (``bluealsa``), which appear in /proc/asound/cards when plugged in and vanish when pulled out. The first such
    card is used, as ``plughw:CARD=<id>,DEV=0``."""
    try:
        with open(cards_path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read(1 << 16).splitlines()
    except OSError:
        return None
    for line in lines:
        head, sep, rest = line.partition("]:")
        if not sep or "[" not in head:
            continue
        card_id = head.split("[", 1)[1].strip()
        driver = rest.strip().split(" - ", 1)[0].strip()
        if card_id and (driver == "USB-Audio" or "bluealsa" in driver.lower()):
            return f"plughw:CARD={card_id},DEV=0"
    return None


def popen_runner(argv: list[str]) -> Process:
    """Start ``argv`` detached from our stdin/stdout; returns at once."""
    return subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
    )


def _check(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def clean_text(text: str) -> str:
    """One line of printable text: control characters become spaces, spaces collapse, length capped."""
    chars = [" " if unicodedata.category(c).startswith("C") else c for c in text]
    return " ".join("".join(chars).split())[:MAX_TEXT]


class Speaker:
    """Speaks through espeak-ng on the box's audio output.

    ``output`` says what is plugged into that output: "speaker" (heard by the whole table) or "headphones"
    (heard by one player). ``device`` optionally names the audio device for espeak-ng's ``-d``. ``runner``
    starts a process from an argv (default: ``subprocess.Popen``); ``which`` finds a program on PATH (default:
    ``shutil.which``). Raises ValueError for an unknown output or language.
    """

    def __init__(
        self,
        output: str = "speaker",
        language: str = "fr",
        runner: Runner | None = None,
        *,
        rate: int = DEFAULT_RATE,
        device: str | None = None,
        which: Callable[[str], str | None] = shutil.which,
        headphones: Callable[[], str | None] = find_headphones,
    ) -> None:
        self._output = _check(output, OUTPUTS, "speech output")
        self._language = _check(language, LANGUAGES, "speech language")
        self._runner: Runner = runner if runner is not None else popen_runner
        self._which = which
        self.rate = int(rate)
        self.device = device
        self._headphones = headphones
        self._current: Process | None = None
        self._failed = False

    @property
    def output(self) -> str:
        return self._output

    @output.setter
    def output(self, value: str) -> None:
        self._output = _check(value, OUTPUTS, "speech output")
        if self._output != "headphones":
            self.stop()  # a key being read must not carry on through a speaker

    @property
    def language(self) -> str:
        return self._language

    @language.setter
    def language(self, value: str) -> None:
        self._language = _check(value, LANGUAGES, "speech language")

    def available(self) -> bool:
        """True when espeak-ng is on PATH (and has not failed to start); otherwise the option is hidden."""
        return not self._failed and self._which(ESPEAK) is not None

    def argv(self, text: str, device: str | None = None) -> list[str]:
        """The espeak-ng command line for ``text`` ("--" so a text starting with "-" is never an option), to
        ``device`` (else the speaker's device, else the default output)."""
        args = [ESPEAK, "-v", VOICES[self._language], "-s", str(self.rate)]
        target = device or self.device
        if target:
            args += ["-d", target]
        return [*args, "--", clean_text(text)]

    def headphones_present(self) -> bool:
        """True when headphones are plugged in (see ``find_headphones``)."""
        return self._headphones() is not None

    def say(self, text: str, *, device: str | None = None) -> bool:
        """Start speaking ``text`` (stopping any utterance still playing); True if a process was started.

        Never blocks and never raises: an empty text, a missing espeak-ng or a failure to start returns False.
        """
        if not clean_text(text) or not self.available():
            return False
        self.stop()
        try:
            self._current = self._runner(self.argv(text, device))
        except OSError as exc:
            self._failed = True
            log.warning("speech: cannot start %s, spoken announcements are off (%s)", ESPEAK, exc)
            return False
        return True

    def say_key(self, text: str) -> bool:
        """Speak a key, only through headphones that are really plugged in, to their own device: on a shared
        speaker, or with the output set to headphones but none detected, it says nothing and returns False."""
        if self._output != "headphones":
            return False
        device = self._headphones()
        if device is None:
            log.warning("speech: no headphones plugged in, the key is not read")
            return False
        return self.say(text, device=device)

    def speaking(self) -> bool:
        return self._current is not None and self._current.poll() is None

    def stop(self) -> None:
        """Cut the utterance still playing, if any (does not wait for the process)."""
        current, self._current = self._current, None
        if current is not None and current.poll() is None:
            try:
                current.terminate()
            except OSError:  # already gone
                pass

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- texts ---------------------------------------------------------------------------------------------------


def _check_lang(lang: str) -> str:
    return _check(lang, LANGUAGES, "speech language")


def _spoken_word(word: str) -> str:
    # espeak-ng may spell a short all-capitals word letter by letter; the cards print words in capitals.
    return word.lower() if word.isupper() else word


def clue_announcement(
    lang: str, clue_word: str, number: int | None, agents_left: int, bank_tokens: int | None = None
) -> str:
    """What the box says for a seat's request during play: the clue, the agents left and the bank.

    ``number`` None means an unlimited clue (classic); ``bank_tokens`` None means a mode without a bank
    (classic, Pictures), and the sentence about it is left out. The sentences are the catalogs' ``speech.*``
    texts, their plurals chosen by Babel's rule of the language. Raises ValueError for an unknown language.
    """
    tr = Translator(_check_lang(lang))
    word = _spoken_word(clue_word)
    parts = [tr("speech.clue", word=word, number=tr("speech.unlimited") if number is None else number)]
    parts.append(tr("speech.agents_left", n=agents_left) if agents_left > 0 else tr("speech.agents_none"))
    if bank_tokens is not None:
        parts.append(tr("speech.bank_left", n=bank_tokens) if bank_tokens > 0 else tr("speech.bank_empty"))
    return " ".join(parts)


@dataclass(frozen=True)
class SeatKeySummary:
    """What a clue giver's key says about the cards still in play (covered cards left out)."""

    agents: tuple[str, ...]
    assassins: tuple[str, ...] = ()
    bystanders: tuple[str, ...] = ()


def key_summary(words: Sequence[str], key: str, covered: Sequence[bool] = ()) -> SeatKeySummary:
    """Sort the uncovered words by one seat's Duet key side ("G" agent, "N" bystander, "X" assassin).

    Raises ValueError when the lengths differ or the key holds another letter.
    """
    if len(words) != len(key) or (covered and len(covered) != len(words)):
        raise ValueError("words, key and covered must have the same length")
    sorted_words: dict[str, list[str]] = {"G": [], "N": [], "X": []}
    for i, (word, mark) in enumerate(zip(words, key, strict=True)):
        if mark not in sorted_words:
            raise ValueError(f"unknown key letter {mark!r} (expected G, N or X)")
        if covered and covered[i]:
            continue
        sorted_words[mark].append(word)
    return SeatKeySummary(tuple(sorted_words["G"]), tuple(sorted_words["X"]), tuple(sorted_words["N"]))


def key_announcement(lang: str, seat_key_summary: SeatKeySummary) -> str:
    """The key read to a clue giver through headphones: agents first, then assassins, then bystanders (the
    catalogs' ``speech.key_*`` labels: one for a single word, one for a list).

    Raises ValueError for an unknown language.
    """
    tr = Translator(_check_lang(lang))
    parts: list[str] = []

    def group(kind: str, words: tuple[str, ...]) -> None:  # one word, or a list of them: a label for each
        if words:
            key = f"speech.key_{kind}" if len(words) == 1 else f"speech.key_{kind}s"
            parts.append(tr(key, words=", ".join(_spoken_word(w) for w in words)))

    if seat_key_summary.agents:
        group("agent", seat_key_summary.agents)
    else:
        parts.append(tr("speech.key_none"))
    group("assassin", seat_key_summary.assassins)
    group("bystander", seat_key_summary.bystanders)
    return " ".join(parts)
