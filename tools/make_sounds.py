"""Generate the box's sound cues as WAV files (22050 Hz, mono, 16-bit), with nothing but the stdlib.

Usage: python tools/make_sounds.py [--out DIR]    (default DIR: device/data/sounds of this repository)

Every cue is built from plain synthesis: notes made of a few harmonics under a decaying envelope, mixed and
normalised. The output is deterministic, so running the script again rewrites the committed files unchanged.
The sounds are the project's own work, dedicated to the public domain (CC0).
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22050
PEAK = 0.55  # of full scale: pleasant, and room for the mixer's own volume
FADE_OUT = 0.03  # seconds, so no cue ends on a click

Samples = list[float]


def _note_hz(name: str) -> float:
    """Frequency of a note like "A4", "C#5", "Eb4" (equal temperament, A4 = 440 Hz)."""
    steps = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}
    semis = steps[name[0]]
    rest = name[1:]
    if rest.startswith("#"):
        semis, rest = semis + 1, rest[1:]
    elif rest.startswith("b"):
        semis, rest = semis - 1, rest[1:]
    octave = int(rest)
    return 440.0 * 2.0 ** ((semis + 12 * (octave - 4)) / 12.0)


def _silence(seconds: float) -> Samples:
    return [0.0] * round(seconds * RATE)


def _tone(
    freq: float,
    seconds: float,
    *,
    partials: tuple[tuple[float, float], ...] = ((1.0, 1.0), (2.0, 0.35), (3.0, 0.12)),
    decay: float = 6.0,
    attack: float = 0.006,
    glide_to: float | None = None,
    tremolo: float = 0.0,
) -> Samples:
    """One note: partials are (frequency ratio, level); decay is the exponential rate per second."""
    n = round(seconds * RATE)
    out: Samples = []
    phase = [0.0] * len(partials)
    for i in range(n):
        t = i / RATE
        f = freq if glide_to is None else freq + (glide_to - freq) * (t / seconds)
        env = math.exp(-decay * t) * min(1.0, t / attack)
        if tremolo:
            env *= 0.75 + 0.25 * math.cos(2.0 * math.pi * tremolo * t)
        value = 0.0
        for k, (ratio, level) in enumerate(partials):
            phase[k] += 2.0 * math.pi * f * ratio / RATE
            value += level * math.sin(phase[k])
        out.append(env * value)
    return out


def _mix_at(base: Samples, add: Samples, start: float, gain: float = 1.0) -> Samples:
    """``base`` with ``add`` mixed in from ``start`` seconds (``base`` grows if needed)."""
    offset = round(start * RATE)
    need = offset + len(add)
    if len(base) < need:
        base = base + [0.0] * (need - len(base))
    for i, v in enumerate(add):
        base[offset + i] += gain * v
    return base


def _finish(samples: Samples, seconds: float) -> Samples:
    """Cut or pad to ``seconds``, fade the tail out and normalise the peak."""
    n = round(seconds * RATE)
    samples = (samples + [0.0] * n)[:n]
    fade = round(FADE_OUT * RATE)
    for i in range(fade):
        samples[n - fade + i] *= 1.0 - (i + 1) / fade
    top = max(abs(v) for v in samples) or 1.0
    return [v * PEAK / top for v in samples]


# -- the cues ------------------------------------------------------------------------------------------------

BELL = ((1.0, 1.0), (2.76, 0.4), (5.4, 0.2), (8.93, 0.08))  # inharmonic partials of a small bell
SOFT = ((1.0, 1.0), (2.0, 0.15))
REED = ((1.0, 1.0), (2.0, 0.5), (3.0, 0.33), (4.0, 0.25), (5.0, 0.2))


def agent() -> Samples:
    """A bright rising two-note chime: a green agent found."""
    s = _tone(_note_hz("E5"), 0.3, partials=BELL, decay=9.0)
    s = _mix_at(s, _tone(_note_hz("B5"), 0.25, partials=BELL, decay=10.0), 0.09)
    return _finish(s, 0.35)


def bystander() -> Samples:
    """A soft falling "boop": a bystander, the turn ends."""
    return _finish(_tone(_note_hz("A4"), 0.4, partials=SOFT, decay=7.0, glide_to=_note_hz("E4")), 0.4)


def assassin() -> Samples:
    """A low, trembling, dissonant fall: the assassin."""
    s = _tone(_note_hz("C3"), 0.8, partials=REED, decay=3.0, glide_to=_note_hz("G2"), tremolo=9.0)
    s = _mix_at(s, _tone(_note_hz("F#3"), 0.8, partials=REED, decay=3.5, glide_to=_note_hz("C#3")), 0.0, 0.6)
    return _finish(s, 0.8)


def win() -> Samples:
    """A rising major arpeggio that rings out."""
    s: Samples = []
    for i, name in enumerate(("C5", "E5", "G5", "C6")):
        s = _mix_at(s, _tone(_note_hz(name), 1.0 - 0.12 * i, partials=BELL, decay=4.0), 0.12 * i)
    return _finish(s, 1.0)


def loss() -> Samples:
    """A slow falling minor line."""
    s: Samples = []
    for i, name in enumerate(("G4", "Eb4", "C4")):
        s = _mix_at(s, _tone(_note_hz(name), 0.6, partials=SOFT, decay=4.5), 0.22 * i)
    return _finish(s, 1.0)


def sudden_death() -> Samples:
    """Two low insistent pulses: sudden death begins."""
    s: Samples = []
    for start in (0.0, 0.3):
        s = _mix_at(s, _tone(_note_hz("D3"), 0.28, partials=REED, decay=8.0), start)
        s = _mix_at(s, _tone(_note_hz("D4"), 0.28, partials=SOFT, decay=8.0), start, 0.5)
    return _finish(s, 0.7)


def hourglass_warning() -> Samples:
    """A light double tick: the last ten seconds."""
    s: Samples = []
    for start in (0.0, 0.14):
        s = _mix_at(s, _tone(_note_hz("A6"), 0.12, partials=SOFT, decay=30.0, attack=0.002), start)
    return _finish(s, 0.3)


def hourglass_end() -> Samples:
    """A small gong: the sand has run out."""
    s = _tone(_note_hz("G4"), 0.7, partials=BELL, decay=4.0)
    s = _mix_at(s, _tone(_note_hz("G3"), 0.7, partials=SOFT, decay=4.0), 0.0, 0.5)
    return _finish(s, 0.7)


def clue_refused() -> Samples:
    """A short low "uh-uh": the clue is not accepted."""
    s = _tone(_note_hz("E3"), 0.16, partials=REED, decay=6.0)
    s = _mix_at(s, _tone(_note_hz("C3"), 0.2, partials=REED, decay=6.0), 0.19)
    return _finish(s, 0.4)


CUES: dict[str, Callable[[], Samples]] = {
    "agent": agent,
    "bystander": bystander,
    "assassin": assassin,
    "win": win,
    "loss": loss,
    "sudden_death": sudden_death,
    "hourglass_warning": hourglass_warning,
    "hourglass_end": hourglass_end,
    "clue_refused": clue_refused,
}


def to_pcm(samples: Samples) -> bytes:
    """Signed 16-bit little-endian frames."""
    ints = [max(-32767, min(32767, round(v * 32767))) for v in samples]
    return struct.pack(f"<{len(ints)}h", *ints)


def write_wav(path: Path, samples: Samples) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(to_pcm(samples))


def main(argv: list[str] | None = None) -> int:
    default_out = Path(__file__).resolve().parent.parent / "device" / "data" / "sounds"
    parser = argparse.ArgumentParser(description="Generate duetbox's sound cues (WAV, 22050 Hz mono 16-bit).")
    parser.add_argument("--out", type=Path, default=default_out, help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, make in CUES.items():
            write_wav(args.out / f"{name}.wav", make())
    except OSError as exc:
        print(f"make_sounds: cannot write to {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(CUES)} cues to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
