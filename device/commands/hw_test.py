"""`duetbox hw-test`: check the wiring of a box.

Lights the ring round, draws a labelled pattern on each OLED ("seat A", "seat B"), shows a test card on the
display and prints every button, touch and key event until MENU is held for 3 seconds, the window is closed,
Ctrl-C is pressed or --seconds have passed. Exit 0 after a run, 1 when a device is missing (the line says how
to fix it), 2 for bad usage or a bad configuration file.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from hardware.base import SEATS, InputEvent
from hardware.box import Box
from hardware.config import ConfigError, find_config, load_config
from hardware.testpattern import draw_test_card, oled_pattern, ring_chase

RING_STEP = 0.08  # seconds per LED of the chase
HOLD_TO_QUIT = 3.0


def describe(event: InputEvent) -> str:
    if event.kind in ("press", "release"):
        who = f"seat {event.seat}" if event.seat else "box"
        return f"{event.time:10.3f}  {who:<7} {event.button:<6} {event.kind}"
    if event.kind == "touch":
        if event.card is not None:
            where = f"card {event.card}"
        elif event.pos is not None:
            where = f"at x={event.pos[0]:.3f} y={event.pos[1]:.3f}"
        else:
            where = "off the grid"
        return f"{event.time:10.3f}  touch   {where}"
    if event.kind == "text":
        return f"{event.time:10.3f}  keyboard {event.text!r}"
    return f"{event.time:10.3f}  {event.kind}"


def run_test(box: Box, out: TextIO, seconds: float | None) -> int:
    """Show the patterns and print events; returns the number of events seen."""
    cfg = box.config
    for seat in SEATS:
        box.oleds[seat].show(oled_pattern(seat, box.oleds[seat].size))
        box.buttons.set_ok_led(seat, True)
    o = cfg.oleds
    display = box.display
    if display is not None:
        draw_test_card(display.surface, [
            f"duetbox hw-test ({box.backend})  display {display.size[0]}x{display.size[1]}",
            f"OLED A: {o['A'].model} at {o['A'].address:#04x} on i2c-{o['A'].port}, rotation {o['A'].rotation}",
            f"OLED B: {o['B'].model} at {o['B'].address:#04x} on i2c-{o['B'].port}, rotation {o['B'].rotation}",
            f"ring: {cfg.ring.count} LEDs, {cfg.ring.driver} {cfg.ring.device}, brightness {cfg.ring.brightness}",
            "press every button, touch the screen; hold MENU 3 s to end",
        ])
        display.present()
    else:
        print("no shared display: the OLEDs, the ring and the buttons are tested", file=out)
    print("every event is printed; hold MENU for 3 s (or Ctrl-C) to end", file=out, flush=True)
    start = box.clock.now()
    menu_down: float | None = None
    seen = 0
    step = -1
    while True:
        now = box.clock.now()
        new_step = int((now - start) / RING_STEP)
        if new_step != step:
            step = new_step
            box.ring.show(ring_chase(box.ring.count, step))
        if seconds is not None and now - start >= seconds:
            break
        if menu_down is not None and now - menu_down >= HOLD_TO_QUIT:
            print("MENU held: done", file=out)
            break
        events = box.wait_events(0 if seconds == 0 else RING_STEP / 2)
        for event in events:
            seen += 1
            print(describe(event), file=out, flush=True)
            if event.kind == "quit":
                return seen
            if event.button == "menu":
                menu_down = event.time if event.kind == "press" else None
    return seen


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="duetbox hw-test", description=__doc__.splitlines()[0])
    parser.add_argument("--hardware", choices=("pi", "emulator", "mock"), default="pi",
                        help="the backend to test (default: pi, the real box)")
    parser.add_argument("--config", help="hardware configuration (default: $DUETBOX_CONFIG, "
                                         "/etc/duetbox/config.toml, else the bundled default)")
    parser.add_argument("--seconds", type=float, default=None, help="end after this many seconds")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    try:
        config = load_config(args.config if args.config else find_config())
    except ConfigError as exc:
        print(f"duetbox hw-test: {exc} (see `duetbox config check FILE`)", file=sys.stderr)
        return 2
    from hardware.factory import open_box

    try:
        box = open_box(args.hardware, config)
    except OSError as exc:
        print(f"duetbox hw-test: {exc}", file=sys.stderr)
        return 1
    with box:
        try:
            seen = run_test(box, sys.stdout, args.seconds)
        except KeyboardInterrupt:
            seen = -1
        for seat in SEATS:
            box.buttons.set_ok_led(seat, False)
    if seen >= 0:
        print(f"{seen} event(s)")
    return 0
