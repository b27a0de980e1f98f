"""``duetbox bench --profile pi4|zero2w``: the same app, with the Pi's buses and SD card simulated.

This machine's buses cost nothing and its disk is a server's, so the plain bench cannot say what a guess costs
on the box. The profile runs the real app (``device.app.App``) on the mock backend with the Pi backend's code
path: a ``BusWriter`` thread per bus, the two OLEDs on one I2C link that takes 9 clock cycles a byte at 400 kHz
(and again at 100 kHz, the Pi's clock when ``i2c_arm_baudrate`` is not set), the ring on an SPI link at the
ring driver's 6.4 MHz, and every durable commit delayed by an SD-card flush time drawn from measured cards.
Wall-clock time is real here: the links and the flush sleep, the loop must not wait for them.

What is simulated, and from what:

- **I2C**: bytes counted as on the wire by ``hardware/oled.py`` (address, control, commands, data), 9 clock
  cycles each (8 bits and the acknowledge; start and stop bits not counted, so a lower bound).
- **SD-card flush**: the data directory is on a RAM disk (no real fsync), and each durable commit sleeps
  ``SD_WRITES_PER_COMMIT`` small random writes of one card drawn at random from ``SD_CARDS_PI4``: Jeff
  Geerling's microSD benchmarks on a Raspberry Pi 4 model B (pidramble.com, "microSD Card Benchmarks",
  4K random write column, iozone), 15 cards from 0.22 to 4.70 MB/s. A WAL commit writes its frames, then
  the file system's journal block and commit block: about three 4 KiB writes (an estimate, not measured).
- **CPU**: process CPU time (every thread: the loop and the bus writers) per guess, from the card touch to
  the OK release. Measured here; the board figure is that times ``Board.cpu_factor``, an **estimate**.

Figures (milliseconds, p50/p99 over the guesses; "less fsync" subtracts that guess's simulated flush):

- guess → shared display and ring: from the start of the loop step in which the hold completes to the later
  of the shared display's ``present`` and the ring's last byte on its SPI link;
- guess → both OLEDs: to the last byte of that step's OLED frames on the I2C link; ``over bus`` subtracts the
  flush and those frames' own wire time (what the design adds to the bus);
- screen change → all outputs: a MENU press during the game (the pause screen on every output) and the press
  that goes back, from the start of that step to the last of every output (no commit is fsync'd there).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.box import (
    AppDriver,
    _full_redraw_times,
    _machine,
    _timed_renderer,
    percentile,
    policy_action,
    process_figures,
    setup_record,
)
from device.screens.base import HOLD_SECONDS
from engine.actions import Guess
from hardware.config import load_config
from hardware.mock import MockBox
from hardware.oled import full_frame_cost
from hardware.ring import SPI_HZ

FRAME_MS = 1000 / 60  # one frame of a 60 Hz display: 16.7 ms
CPU_BUDGET_MS = 3.0  # CPU per guess, here
OLED_SLACK_MS = 5.0  # guess -> both OLEDs may take the bus time plus this
STARTUP_TARGET_S = 0.5
IDLE_TARGET_PERCENT = 1.0
I2C_RATES = (400_000, 100_000)

#: 4K random write, MB/s, of the 15 cards measured on a Raspberry Pi 4 model B in Jeff Geerling's microSD
#: benchmarks (pidramble.com/wiki/benchmarks/microsd-cards): Samsung Pro+ 32GB, Pro Endurance 32GB, Pro 16GB,
#: Evo Plus 64GB, Evo+ 32GB, Evo 16GB, NOOBS C6 8GB, SanDisk Extreme A2 64GB, Extreme Pro A1 32GB, Extreme
#: Pro 8GB, Extreme 16GB, Ultra 16GB, Lexar Professional A2 128GB, Sony C10 U3 32GB, Toshiba C10 U1 16GB.
SD_CARDS_PI4: tuple[float, ...] = (2.61, 2.83, 1.74, 2.37, 3.85, 1.24, 1.05, 3.70, 4.70, 1.25, 2.46, 1.52,
                                   2.55, 0.66, 0.22)
SD_WRITE_BYTES = 4096
#: A SQLite WAL commit with synchronous=FULL: its frames, then ext4's journal block and commit block.
SD_WRITES_PER_COMMIT = 3


@dataclass(frozen=True)
class Board:
    name: str
    label: str
    cpu_factor: float  # CPU time there / CPU time here, for this pure-Python work: an estimate
    cpu_source: str


BOARDS: dict[str, Board] = {
    "pi4": Board("pi4", "Raspberry Pi 4 (Cortex-A72, 1.5-1.8 GHz)", 3.0,
                 "estimate: a Cortex-A72 at 1.5-1.8 GHz against a server core on CPython (docs/performance.md); "
                 "not measured on a Pi"),
    "zero2w": Board("zero2w", "Raspberry Pi Zero 2 W (Cortex-A53, 1 GHz)", 9.0,
                    "estimate: 8-10x for a Cortex-A53 at 1 GHz (docs/performance.md); not measured on a Pi"),
}

PROFILE_KEYS: tuple[str, ...] = (
    "pi_guess_shared_ring_ms_p50", "pi_guess_shared_ring_ms_p99", "pi_guess_shared_ring_ms_p50_less_fsync",
    "pi_guess_shared_ring_ms_p99_less_fsync",
    "pi_guess_shared_ring_ms_p99_less_drawn_fsync",
    "pi_guess_shared_ring_cpu_ms_p99", "pi_guess_shared_ring_ms_p99_board_estimate",
    "pi_guess_oleds_ms_p50", "pi_guess_oleds_ms_p99", "pi_guess_oleds_ms_p50_over_bus",
    "pi_guess_oleds_ms_p99_over_bus",
    "pi_guess_oleds_ms_p99_over_wire", "pi_guess_oleds_handover_cpu_ms_p50", "pi_guess_oleds_handover_cpu_ms_p99",
    "pi_guess_oleds_handover_ms_p99_board_estimate", "pi_wake_up_delay_ms_p50", "pi_wake_up_delay_ms_p99",
    "pi_oled_bus_ms_per_guess", "pi_screen_change_ms_p50", "pi_screen_change_ms_p99",
    "pi_screen_change_bus_ms", "pi_fsync_ms_p50", "pi_fsync_ms_p99",
    "pi100_guess_shared_ring_ms_p99_less_fsync", "pi100_guess_oleds_ms_p50", "pi100_guess_oleds_ms_p99",
    "pi100_guess_oleds_ms_p99_over_bus", "pi100_oled_bus_ms_per_guess", "pi100_screen_change_ms_p99",
    "oled_bus_bytes_per_guess", "oled_full_frame_bytes", "oled_guess_fraction",
    "cpu_ms_per_guess", "cpu_budget_ratio", "cpu_ms_per_guess_board_estimate",
    "cpu_ms_guess_step", "cpu_ms_guess_step_board_estimate",
    "display_update_ms", "display_full_ms", "display_update_ratio",
    "startup_s", "idle_cpu_percent", "peak_rss_mb",
)

#: (figure, comparison, limit) — the issue's targets, set for the Pi 4 profile.
PROFILE_TARGETS: dict[str, tuple[str, float]] = {
    "pi_guess_shared_ring_ms_p99_less_fsync": ("<=", round(FRAME_MS, 1)),
    "pi_guess_oleds_ms_p99_over_bus": ("<=", OLED_SLACK_MS),
    "cpu_ms_per_guess": ("<=", CPU_BUDGET_MS),
    "startup_s": ("<=", STARTUP_TARGET_S),
    "idle_cpu_percent": ("<", IDLE_TARGET_PERCENT),
}


def sd_flush_s(rng: random.Random) -> float:
    """One simulated durable commit on an SD card: a card drawn from ``SD_CARDS_PI4``, three 4 KiB writes."""
    mb_s = rng.choice(SD_CARDS_PI4)
    return SD_WRITES_PER_COMMIT * SD_WRITE_BYTES / (mb_s * 1e6)


def _ms(seconds: list[float], q: float) -> float | None:
    return round(percentile(seconds, q) * 1000, 2) if seconds else None


class _Timed:
    """The app on a threaded mock box with timed links, instrumented: presents, fsyncs, link timestamps."""

    def __init__(self, directory: Path, game: int, hz: float, rng: random.Random) -> None:
        box = MockBox(load_config(None), threaded=True, i2c_hz=hz, spi_hz=SPI_HZ)
        self.box = box
        self.i2c = next(iter(box.i2c_links.values()))  # both OLEDs share port 1 in the default wiring
        assert box.spi_link is not None
        self.spi = box.spi_link
        self.presents: list[float] = []
        self.shown_cpu: list[float] = []  # the loop thread's CPU clock when the display or the ring was done
        present = box.display.present
        ring_write = box.ring.driver.write

        def timed_present(rects: Any = None) -> None:
            present(rects)
            self.presents.append(time.perf_counter())
            self.shown_cpu.append(time.thread_time())

        def timed_ring(pixels: Any) -> None:
            ring_write(pixels)
            self.shown_cpu.append(time.thread_time())

        self.handover_cpu: list[float] = []  # the loop thread's CPU clock when it handed an OLED frame over

        def timed_show(show: Callable[[Any], None]) -> Callable[[Any], None]:
            def shown(image: Any) -> None:  # the app shows an OLED only a changed frame (device/outputs.py)
                show(image)
                self.handover_cpu.append(time.thread_time())
            return shown

        box.display.present = timed_present  # type: ignore[method-assign]
        box.ring.driver.write = timed_ring  # type: ignore[method-assign]
        for screen in box.oleds.values():
            screen.show = timed_show(screen.show)  # type: ignore[method-assign,assignment]  # timed wrapper
        self.driver = AppDriver(directory / f"g{game}", seed=game, record=setup_record(2000 + game), box=box)
        self.fsyncs: list[float] = []  # simulated flushes drawn in this step
        self.fsyncs_elapsed: list[float] = []  # ... and how long each took here (a sleep: plus the wake-up)
        write = self.driver.storage._write

        def slow_commit(*args: Any, **kwargs: Any) -> Any:
            result = write(*args, **kwargs)
            if kwargs.get("durable", args[3] if len(args) > 3 else True):
                flush = sd_flush_s(rng)
                began = time.perf_counter()
                time.sleep(flush)  # the SD card's flush: the commit returns when it is done
                self.fsyncs_elapsed.append(time.perf_counter() - began)
                self.fsyncs.append(flush)
            return result

        self.driver.storage._write = slow_commit  # type: ignore[method-assign]

    def settle(self) -> None:
        """Let every bus go idle (on the box the 0.6 s hold gives them that time)."""
        if not self.box.flush(30):
            raise RuntimeError("a bus writer did not finish within 30 s")

    def timed_step(self) -> dict[str, Any]:
        """One loop step, then wait for the buses: when each output had the step's frame."""
        self.settle()
        marks = (len(self.presents), self.spi.transfers, self.i2c.transfers, self.i2c.bytes)
        bus_elapsed = self.i2c.elapsed_s
        self.fsyncs.clear()
        self.fsyncs_elapsed.clear()
        self.shown_cpu.clear()
        self.handover_cpu.clear()
        cpu0, start, thread0 = time.process_time(), time.perf_counter(), time.thread_time()
        self.driver.step()
        cpu_step = time.process_time() - cpu0
        shown_cpu = max(self.shown_cpu) - thread0 if self.shown_cpu else None
        handover_cpu = max(self.handover_cpu) - thread0 if self.handover_cpu else None
        self.settle()
        shared = self.presents[-1] if len(self.presents) > marks[0] else None
        ring = self.spi.last_done if self.spi.transfers > marks[1] else None
        oled = self.i2c.last_done if self.i2c.transfers > marks[2] else None
        nbytes = self.i2c.bytes - marks[3]
        shown = [t for t in (shared, ring) if t is not None]
        return {"shared_ring": max(shown) - start if shown else None,
                "oleds": None if oled is None else oled - start,
                "all": max([*shown, oled or start]) - start,
                "bus": self.i2c.seconds(nbytes), "bus_elapsed": self.i2c.elapsed_s - bus_elapsed,
                "bytes": nbytes, "fsync": sum(self.fsyncs), "fsync_elapsed": sum(self.fsyncs_elapsed),
                "cpu_step": cpu_step, "shown_cpu": shown_cpu, "handover_cpu": handover_cpu}

    def close(self) -> None:
        self.driver.close()


def in_game(driver: Any) -> bool:
    """A game is on and its screen is showing (MENU opens the pause screen)."""
    app = driver.app
    return app.game.session is not None and not driver.state.over and app.screen is not None and app.screen.in_game


def _play(directory: Path, hz: float, wanted: int, *, redraws: bool) -> dict[str, list[float]]:
    """Random games on the timed app until ``wanted`` guesses were made; raw figures per guess and per clue."""
    out: dict[str, list[float]] = {k: [] for k in (
        "shared", "shared_less", "shared_less_drawn", "shown_cpu", "handover_cpu", "oleds", "oleds_over",
        "oleds_over_wire", "overshoot", "bus", "bytes", "fsync", "cpu", "cpu_step",
        "change", "change_bus", "update", "full")}
    rng, sd_rng = random.Random(17), random.Random(23)
    render_times: list[float] = []
    game = 0
    with _timed_renderer(render_times):
        while len(out["shared"]) < wanted and game < 100:
            game += 1
            run = _Timed(directory, game, hz, sd_rng)
            box, driver = run.box, run.driver
            try:
                while len(out["shared"]) < wanted:
                    action = policy_action(driver.state, rng)
                    if action is None:
                        break
                    if not isinstance(action, Guess):
                        driver.play(action)
                        continue
                    run.settle()
                    cpu0 = time.process_time()
                    box.touch(action.card)
                    driver.step()
                    box.press(f"{action.seat}.ok")
                    driver.step()
                    box.advance(HOLD_SECONDS)
                    render_times.clear()
                    got = run.timed_step()  # the hold completes: engine, commit, every output
                    update = sum(render_times)
                    box.release(f"{action.seat}.ok")
                    driver.step()
                    run.settle()
                    out["cpu"].append(time.process_time() - cpu0)
                    if got["shared_ring"] is None or got["oleds"] is None:
                        continue  # nothing changed on an output (not seen in practice): not a guess to time
                    out["shared"].append(got["shared_ring"])
                    out["shared_less"].append(got["shared_ring"] - got["fsync_elapsed"])
                    out["shared_less_drawn"].append(got["shared_ring"] - got["fsync"])
                    if got["shown_cpu"] is not None:
                        out["shown_cpu"].append(got["shown_cpu"])
                    if got["handover_cpu"] is not None:
                        out["handover_cpu"].append(got["handover_cpu"])
                    out["oleds"].append(got["oleds"])
                    out["oleds_over"].append(got["oleds"] - got["fsync_elapsed"] - got["bus_elapsed"])
                    out["oleds_over_wire"].append(got["oleds"] - got["fsync"] - got["bus"])
                    out["overshoot"].append(got["fsync_elapsed"] - got["fsync"]
                                            + got["bus_elapsed"] - got["bus"])
                    out["bus"].append(got["bus"])
                    out["bytes"].append(got["bytes"])
                    out["fsync"].append(got["fsync"])
                    out["cpu_step"].append(got["cpu_step"])
                    if redraws and render_times:
                        out["update"].append(update)
                        out["full"].extend(_full_redraw_times(driver, 1))
                    for _ in range(2 if in_game(driver) else 0):  # MENU: the pause screen; MENU: back
                        box.tap("menu")
                        got = run.timed_step()
                        out["change"].append(got["all"] - got["fsync"])
                        out["change_bus"].append(got["bus"])
            finally:
                run.close()
    return out


def profile_figures(board: Board, quick: bool, *, guesses: int | None = None) -> dict[str, Any]:
    """The Pi profile's figures (see the module docstring), at 400 kHz and at 100 kHz."""
    import os

    wanted = guesses if guesses is not None else (20 if quick else 150)
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    out: dict[str, Any] = {"profile": board.name, "board": board.label, "cpu_factor": board.cpu_factor,
                           "cpu_factor_source": board.cpu_source,
                           "sd_flush_model": f"{SD_WRITES_PER_COMMIT} x 4 KiB random writes of one of "
                                             f"{len(SD_CARDS_PI4)} cards (Pi 4, pidramble.com microSD "
                                             "benchmarks)",
                           "data_on_ram_disk": base is not None}
    for hz in I2C_RATES:
        prefix = "pi" if hz == 400_000 else "pi100"
        with tempfile.TemporaryDirectory(prefix="duetbox-bench-pi-", dir=base) as tmp:
            got = _play(Path(tmp), hz, wanted if hz == 400_000 else max(min(10, wanted), wanted // 3),
                        redraws=hz == 400_000)
        out[f"{prefix}_guesses_measured"] = len(got["shared"])
        out[f"{prefix}_guess_shared_ring_ms_p50"] = _ms(got["shared"], 0.5)
        out[f"{prefix}_guess_shared_ring_ms_p99"] = _ms(got["shared"], 0.99)
        out[f"{prefix}_guess_shared_ring_ms_p50_less_fsync"] = _ms(got["shared_less"], 0.5)
        out[f"{prefix}_guess_shared_ring_ms_p99_less_fsync"] = _ms(got["shared_less"], 0.99)
        out[f"{prefix}_guess_shared_ring_ms_p99_less_drawn_fsync"] = _ms(got["shared_less_drawn"], 0.99)
        out[f"{prefix}_guess_oleds_ms_p99_over_wire"] = _ms(got["oleds_over_wire"], 0.99)
        out[f"{prefix}_wake_up_delay_ms_p50"] = _ms(got["overshoot"], 0.5)
        out[f"{prefix}_wake_up_delay_ms_p99"] = _ms(got["overshoot"], 0.99)
        cpu_shown = _ms(got["shown_cpu"], 0.99)
        out[f"{prefix}_guess_shared_ring_cpu_ms_p99"] = cpu_shown
        out[f"{prefix}_guess_shared_ring_ms_p99_board_estimate"] = (
            None if cpu_shown is None else round(cpu_shown * board.cpu_factor, 2))
        handover = _ms(got["handover_cpu"], 0.99)
        out[f"{prefix}_guess_oleds_handover_cpu_ms_p50"] = _ms(got["handover_cpu"], 0.5)
        out[f"{prefix}_guess_oleds_handover_cpu_ms_p99"] = handover
        out[f"{prefix}_guess_oleds_handover_ms_p99_board_estimate"] = (
            None if handover is None else round(handover * board.cpu_factor, 2))
        out[f"{prefix}_guess_oleds_ms_p50"] = _ms(got["oleds"], 0.5)
        out[f"{prefix}_guess_oleds_ms_p99"] = _ms(got["oleds"], 0.99)
        out[f"{prefix}_guess_oleds_ms_p50_over_bus"] = _ms(got["oleds_over"], 0.5)
        out[f"{prefix}_guess_oleds_ms_p99_over_bus"] = _ms(got["oleds_over"], 0.99)
        out[f"{prefix}_oled_bus_ms_per_guess"] = _ms(got["bus"], 0.5)
        out[f"{prefix}_screen_change_ms_p50"] = _ms(got["change"], 0.5)
        out[f"{prefix}_screen_change_ms_p99"] = _ms(got["change"], 0.99)
        out[f"{prefix}_screen_change_bus_ms"] = _ms(got["change_bus"], 0.5)
        out[f"{prefix}_fsync_ms_p50"] = _ms(got["fsync"], 0.5)
        out[f"{prefix}_fsync_ms_p99"] = _ms(got["fsync"], 0.99)
        if hz != 400_000:
            continue
        full_two = 2 * full_frame_cost("ssd1306")
        per_guess = statistics.median(got["bytes"]) if got["bytes"] else None
        cpu = statistics.median(got["cpu"]) * 1000 if got["cpu"] else None
        step = statistics.median(got["cpu_step"]) * 1000 if got["cpu_step"] else None
        out.update({
            "oled_bus_bytes_per_guess": per_guess,
            "oled_full_frame_bytes": full_two,
            "oled_guess_fraction": None if per_guess is None else round(per_guess / full_two, 3),
            "cpu_ms_per_guess": None if cpu is None else round(cpu, 3),
            "cpu_budget_ratio": None if cpu is None else round(cpu / CPU_BUDGET_MS, 3),
            "cpu_ms_per_guess_board_estimate": None if cpu is None else round(cpu * board.cpu_factor, 2),
            "cpu_ms_guess_step": None if step is None else round(step, 3),
            "cpu_ms_guess_step_board_estimate": None if step is None else round(step * board.cpu_factor, 2),
        })
        if got["update"] and got["full"]:
            update = statistics.median(got["update"]) * 1000
            full = statistics.median(got["full"]) * 1000
            out.update({"display_update_ms": round(update, 3), "display_full_ms": round(full, 3),
                        "display_update_ratio": round(update / full, 3) if full > 0 else None})
    return out


def measure_profile(name: str, quick: bool, *, idle_seconds: float | None = None, guesses: int | None = None,
                    process: Callable[[bool, float | None], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every figure of ``duetbox bench --profile NAME``, the targets with met/missed, in one run."""
    if name not in BOARDS:
        raise ValueError(f"unknown profile {name!r} (use one of: {', '.join(BOARDS)})")
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    board = BOARDS[name]
    load_before = _load()
    started = time.perf_counter()
    result: dict[str, Any] = {key: None for key in PROFILE_KEYS}
    notes: dict[str, str] = {}
    parts: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("pi profile", lambda: profile_figures(board, quick, guesses=guesses)),
        ("process", lambda: (process or process_figures)(quick, idle_seconds)),
    ]
    for part_name, part in parts:
        try:
            result.update(part())
        except Exception as exc:  # noqa: BLE001 - one part failing must not hide the others' figures
            notes[part_name] = f"{type(exc).__name__}: {exc}"
    result["targets"] = {key: verdict(result.get(key), op, limit) for key, (op, limit) in PROFILE_TARGETS.items()}
    result["quick"] = quick
    result["machine"] = _machine()
    result["load_average"] = {"before": load_before, "after": _load()}  # wall-clock figures depend on it
    result["bench_seconds"] = round(time.perf_counter() - started, 1)
    if notes:
        result["notes"] = notes
    return result


def _load() -> float | None:
    import os

    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def verdict(value: Any, op: str, limit: float) -> str:
    if value is None:
        return "not measured"
    ok = {"<": value < limit, "<=": value <= limit, ">": value > limit}[op]
    return f"met ({value} {op} {limit})" if ok else f"MISSED ({value}, target {op} {limit})"


_LABELS: dict[str, str] = {
    "pi_guess_shared_ring_ms_p50": "guess -> shared display and ring, p50 (ms, 400 kHz)",
    "pi_guess_shared_ring_ms_p99": "guess -> shared display and ring, p99",
    "pi_guess_shared_ring_ms_p50_less_fsync": "  less the SD flush (as it took here), p50",
    "pi_guess_shared_ring_ms_p99_less_fsync": "  less the SD flush (as it took here), p99",
    "pi_guess_shared_ring_ms_p99_less_drawn_fsync": "  less the flush as drawn, p99",
    "pi_guess_shared_ring_cpu_ms_p99": "  loop CPU until both were done, p99",
    "pi_guess_shared_ring_ms_p99_board_estimate": "  ESTIMATE on the board: that x cpu_factor",
    "pi_guess_oleds_ms_p50": "guess -> both OLEDs, p50",
    "pi_guess_oleds_ms_p99": "guess -> both OLEDs, p99",
    "pi_guess_oleds_ms_p50_over_bus": "  less the flush and the bus time (as they took), p50",
    "pi_guess_oleds_ms_p99_over_bus": "  less the flush and the bus time (as they took), p99",
    "pi_guess_oleds_ms_p99_over_wire": "  less the flush as drawn and the wire time, p99",
    "pi_guess_oleds_handover_cpu_ms_p50": "  loop CPU until both frames were handed over, p50",
    "pi_guess_oleds_handover_cpu_ms_p99": "  loop CPU until both frames were handed over, p99",
    "pi_guess_oleds_handover_ms_p99_board_estimate": "  ESTIMATE on the board: that x cpu_factor",
    "pi_wake_up_delay_ms_p50": "  this host's wake-up delay in the sleeps, p50",
    "pi_wake_up_delay_ms_p99": "  this host's wake-up delay in the sleeps, p99",
    "pi_oled_bus_ms_per_guess": "  bus time of a guess's OLED frames",
    "pi_screen_change_ms_p50": "screen change (MENU) -> all outputs, p50",
    "pi_screen_change_ms_p99": "screen change (MENU) -> all outputs, p99",
    "pi_screen_change_bus_ms": "  bus time of a screen change",
    "pi_fsync_ms_p50": "simulated SD flush per guess, p50",
    "pi_fsync_ms_p99": "simulated SD flush per guess, p99",
    "pi100_guess_shared_ring_ms_p99_less_fsync": "100 kHz: guess -> shared and ring less flush, p99",
    "pi100_guess_oleds_ms_p50": "100 kHz: guess -> both OLEDs, p50",
    "pi100_guess_oleds_ms_p99": "100 kHz: guess -> both OLEDs, p99",
    "pi100_guess_oleds_ms_p99_over_bus": "100 kHz:   less the flush and the bus time, p99",
    "pi100_oled_bus_ms_per_guess": "100 kHz:   bus time of a guess's OLED frames",
    "pi100_screen_change_ms_p99": "100 kHz: screen change -> all outputs, p99",
    "oled_bus_bytes_per_guess": "OLED bus bytes per guess",
    "oled_full_frame_bytes": "  two full frames",
    "oled_guess_fraction": "  ratio (luma would send two full frames)",
    "cpu_ms_per_guess": "CPU per guess here (ms, every thread)",
    "cpu_budget_ratio": "  against the 3 ms budget",
    "cpu_ms_per_guess_board_estimate": "  ESTIMATE on the board (x cpu_factor)",
    "cpu_ms_guess_step": "CPU of the step applying the guess (ms)",
    "cpu_ms_guess_step_board_estimate": "  ESTIMATE on the board (x cpu_factor)",
    "display_update_ms": "shared display update (ms; not a target)",
    "display_full_ms": "  warm full redraw",
    "display_update_ratio": "  ratio",
    "startup_s": "start to first frame here (s)",
    "idle_cpu_percent": "idle CPU here (%)",
    "peak_rss_mb": "peak RSS here (MB)",
}


def profile_table(result: dict[str, Any]) -> str:
    lines = [f"profile {result.get('profile')}: {result.get('board')} (simulated on this machine)"]
    for key in PROFILE_KEYS:
        value = result.get(key)
        lines.append(f"{_LABELS.get(key, key):<52} {'-' if value is None else value}")
    lines.append("")
    for key, text in result.get("targets", {}).items():
        lines.append(f"target {key:<40} {text}")
    lines.append("")
    lines.append(f"cpu_factor {result.get('cpu_factor')}: {result.get('cpu_factor_source')}")
    lines.append(f"SD flush: {result.get('sd_flush_model')}")
    for name, note in result.get("notes", {}).items():
        lines.append(f"note {name}: {note}")
    load = result.get("load_average") or {}
    lines.append(f"machine: {result.get('machine')}, load average {load.get('before')} -> {load.get('after')}; "
                 f"{'quick' if result.get('quick') else 'full'} run in {result.get('bench_seconds')} s")
    return "\n".join(lines)
