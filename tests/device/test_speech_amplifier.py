"""The box's I2S amplifier is the table's speaker, never "headphones": a key is not read through it."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

# device/speech.py moves to device/services/speech.py (#25): this test follows either place.
speech = importlib.import_module("device.services.speech" if importlib.util.find_spec("device.services")
                                 else "device.speech")

PI_WITH_AMPLIFIER = """\
 0 [MAX98357A      ]: simple-card - MAX98357A
                      MAX98357A
 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
"""
HEADSET = """\
 2 [Headset        ]: USB-Audio - USB Headset
                      Logitech USB Headset at usb-0000:01:00.0-1.3, full speed
"""


def test_the_amplifier_counts_as_the_speaker(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text(PI_WITH_AMPLIFIER, encoding="utf-8")
    assert speech.find_headphones(str(cards)) is None
    cards.write_text(PI_WITH_AMPLIFIER + HEADSET, encoding="utf-8")
    assert speech.find_headphones(str(cards)) == "plughw:CARD=Headset,DEV=0"


def test_public_speech_goes_to_the_default_output_the_installer_points_at_the_amplifier() -> None:
    """No -d: espeak-ng plays on ALSA's default, which /etc/asound.conf (systemd/install.sh) makes the amplifier."""
    speaker = speech.Speaker(output="speaker", language="en", runner=lambda argv: None)
    assert "-d" not in speaker.argv("Clue: harbour, 2.")
    install = (Path(__file__).resolve().parents[2] / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert "dtoverlay=max98357a,no-sdmode" in install and 'pcm "hw:CARD=$1,DEV=0"' in install
