"""``duetbox bench``: how fast and how frugal the box is, measured on this machine in one run.

Every figure is the median (or a percentile) of several repetitions; ratios are computed inside the run so
that the machine's speed cancels out. The figures come from the real code paths:

- the engine alone (one guess applied and both kinds of view computed; random legal self-play);
- the real app (``device.app.App``) on the mock backend with its fake clock, playing a game through button
  events: the loop iteration that applies a guess (engine, storage commit, shared display, both OLEDs, ring),
  the OLED bus bytes that guess costs, and the shared renderer's time for that update against a full redraw;
- the real process (``duetbox run --hardware emulator`` under SDL's dummy video driver, real clock): the time
  from process start to the first frame (its systemd ``READY=1``, sent after the first frame), its CPU use
  while idle, and its peak resident memory.

``measure(quick)`` returns one dict (the JSON of ``duetbox bench --json``); a figure that cannot be measured
here is ``None`` with the reason under ``notes``.
"""

from __future__ import annotations

import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import device.outputs as outputs
from device.app import App
from device.modes import DUET
from device.packs import load as load_pack_by_name
from device.render.shared import SharedRenderer
from device.screens.base import HOLD_SECONDS
from device.storage import Storage
from engine import duet
from engine.actions import Clue, DuetAction, Guess, Penalty, Stop
from engine.clues import check_clue, prepare
from engine.keycard import random_key
from engine.languages import CODES
from engine.seats import SEATS
from engine.views import public_view, seat_view
from engine.words import bundled_packs, draw_words, load_pack
from hardware.factory import open_box
from hardware.mock import MockBox
from hardware.oled import full_frame_cost

#: I2C at 400 kHz: every byte on the wire takes 9 clock cycles (8 bits and the acknowledge).
I2C_HZ = 400_000
I2C_BITS_PER_BYTE = 9

#: The issue's targets (figure, comparison, limit).
TARGETS: dict[str, tuple[str, float]] = {
    "idle_cpu_percent": ("<", 1.0),
    "guess_latency_ms_p99": ("<", 10.0),
    "oled_guess_fraction": ("<", 0.25),
    "display_update_ratio": ("<", 0.1),
    "peak_rss_mb": ("<", 80.0),
}

KEYS: tuple[str, ...] = (
    "guess_latency_ms_p50", "guess_latency_ms_p99", "oled_bus_bytes_per_guess", "oled_full_frame_bytes",
    "oled_guess_fraction", "oled_i2c_ms_per_guess", "oled_i2c_ms_full_frames", "display_full_ms",
    "display_update_ms", "display_update_ratio", "idle_cpu_percent", "startup_s", "peak_rss_mb",
    "engine_apply_us", "selfplay_games_per_s", "storage_commit_ms",
)

#: Figures that explain the main ones (printed under them).
DETAILS: tuple[str, ...] = (
    "guess_latency_ms_p50_ram_disk", "guess_latency_ms_p99_ram_disk", "storage_fsyncs_per_guess",
    "display_full_cold_ms", "display_update_ratio_cold", "display_guess_full_ms", "display_diff_ratio",
    "idle_cpu_percent_sdl_wait", "idle_cpu_percent_queue_wait",
)


def i2c_ms(nbytes: float) -> float:
    """Bus time of ``nbytes`` bytes at 400 kHz, in milliseconds."""
    return nbytes * I2C_BITS_PER_BYTE / I2C_HZ * 1000


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; ValueError on no values."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# --- games: a random legal policy the button scripts can play -----------------------------------------------

def setup_record(seed: int) -> dict[str, Any]:
    """A fresh Duet game as a ``duetbox-record/1`` record without actions (words: the bundled French pack)."""
    rng = random.Random(seed)
    words = draw_words(load_pack("fr"), rng)
    key = random_key(rng)
    return {"format": "duetbox-record/1", "mode": DUET.kind, "language": "fr", "words": list(words),
            "key": {"A": key.a, "B": key.b},
            "rules": {"tokens": 9, "mistakes": 9, "clues": "strict", "several_clues": False}, "actions": []}


def policy_action(state: duet.DuetState, rng: random.Random) -> DuetAction | None:
    """A random legal action that the box's buttons can make (no penalty; a spoken clue of 1..3; in sudden
    death the first seat allowed). None when the game is over."""
    actions = [a for a in duet.legal_actions(state) if not isinstance(a, Penalty)]
    if not actions:
        return None
    clues = [a for a in actions if isinstance(a, Clue) and 1 <= a.number <= 3]
    if clues:
        return rng.choice(clues)
    stops = [a for a in actions if isinstance(a, Stop)]
    if stops and rng.random() < 0.3:
        return stops[0]
    guesses = [a for a in actions if isinstance(a, Guess)]
    first = guesses[0].seat
    return rng.choice([g for g in guesses if g.seat == first])


def script_lines(action: DuetAction) -> list[str]:
    """The ``duetbox run`` script lines that make ``action`` on the box (see device/commands/run.py)."""
    if isinstance(action, Clue):
        return [f"press {action.seat}.ok", f"type {action.seat} {action.number}\\n\\n"]
    if isinstance(action, Guess):
        return [f"touch {action.card}", f"hold {action.seat}.ok 700"]
    if isinstance(action, Stop):
        return [f"hold {action.seat}.stop 700"]
    raise ValueError(f"no button script for {action}")


def random_duet_game(rng: random.Random) -> duet.DuetState:
    """One game of random legal play (penalties included), to the end."""
    state = duet.new_game(draw_words(load_pack("fr"), rng), random_key(rng))
    while not state.over:
        state, _ = duet.apply(state, rng.choice(duet.legal_actions(state)))
    return state


# --- engine figures -----------------------------------------------------------------------------------------

def engine_figures(quick: bool) -> dict[str, Any]:
    rng = random.Random(11)
    words = draw_words(load_pack("fr"), rng)
    # States where a guess is due, taken from random games.
    cases: list[tuple[duet.DuetState, Guess]] = []
    while len(cases) < (60 if quick else 300):
        state = duet.new_game(words, random_key(rng))
        while not state.over:
            actions = duet.legal_actions(state)
            guesses = [a for a in actions if isinstance(a, Guess)]
            if guesses:
                cases.append((state, rng.choice(guesses)))
            state, _ = duet.apply(state, rng.choice(actions))
    per_case: list[float] = []
    for _ in range(3 if quick else 7):
        start = time.perf_counter()
        for state, guess in cases:
            new, _ = duet.apply(state, guess, version=state.version)
            public_view(new)
            seat_view(new, "A")
            seat_view(new, "B")
        per_case.append((time.perf_counter() - start) / len(cases) * 1e6)
    rates: list[float] = []
    window = 0.25 if quick else 1.0
    for _ in range(3 if quick else 5):
        games, start = 0, time.perf_counter()
        while time.perf_counter() - start < window:
            random_duet_game(rng)
            games += 1
        rates.append(games / (time.perf_counter() - start))
    return {"engine_apply_us": round(statistics.median(per_case), 1),
            "selfplay_games_per_s": round(statistics.median(rates), 1)}


# --- the real app on the mock backend -----------------------------------------------------------------------

_RENDER_SHARED = "_render_shared"


@contextmanager
def _timed_renderer(times: list[float], calls: list[tuple[Any, Any]] | None = None) -> Iterator[None]:
    """Time every call of the shared-display renderer the app uses (and keep its (view, model) in ``calls``)."""
    # by name: device.outputs calls the renderer it imported under this private name
    original = getattr(outputs, _RENDER_SHARED)
    fallback = outputs._standin_shared

    def timed(surface: Any, view: Any, ui: Any, *rest: Any) -> Any:
        if calls is not None:
            calls.append((view, ui))
        start = time.perf_counter()
        try:
            if original is None:
                return fallback(surface, view, ui)
            return original(surface, view, ui, *rest)
        finally:
            times.append(time.perf_counter() - start)

    setattr(outputs, _RENDER_SHARED, timed)
    try:
        yield
    finally:
        setattr(outputs, _RENDER_SHARED, original)


class AppDriver:
    """The real app on the mock backend, played through its buttons (a test and bench helper)."""

    def __init__(self, data_dir: str | Path, *, seed: int = 1, record: dict[str, Any] | None = None,
                 box: MockBox | None = None) -> None:
        self.box = box if box is not None else open_box("mock")
        self.storage = Storage(Path(data_dir))
        self.app = App(self.box, self.storage, seed=seed)
        self.app.start(record)

    @property
    def state(self) -> duet.DuetState:
        assert self.app.game.session is not None
        state = self.app.game.session.state
        assert isinstance(state, duet.DuetState), "the bench plays Duet"
        return state

    def oled_bytes(self) -> int:
        return int(sum(self.box.oleds[s].bytes_sent for s in SEATS))

    def step(self) -> None:
        self.app.step(0)

    def clue(self, action: Clue) -> None:
        self.box.press(f"{action.seat}.ok")
        self.box.release(f"{action.seat}.ok")
        self.step()
        self.box.type_text(action.seat, f"{action.number}\n\n")
        self.step()

    def stop(self, action: Stop) -> None:
        self.box.press(f"{action.seat}.stop")
        self.step()
        self.box.advance(0.7)
        self.step()
        self.box.release(f"{action.seat}.stop")
        self.step()

    def guess(self, action: Guess) -> tuple[float, int]:
        """Play a guess: touch the card, hold OK. Returns (seconds of the loop step that applied it, OLED bus
        bytes from the OK press to its release)."""
        self.box.touch(action.card)
        self.step()
        before = self.oled_bytes()
        self.box.press(f"{action.seat}.ok")
        self.step()
        self.box.advance(HOLD_SECONDS)
        start = time.perf_counter()
        self.step()  # the hold completes: engine, storage commit, every output
        took = time.perf_counter() - start
        self.box.release(f"{action.seat}.ok")
        self.step()
        return took, self.oled_bytes() - before

    def play(self, action: DuetAction) -> None:
        if isinstance(action, Clue):
            self.clue(action)
        elif isinstance(action, Guess):
            self.guess(action)
        elif isinstance(action, Stop):
            self.stop(action)

    def close(self) -> None:
        self.app.shutdown()


class _NoDiffRenderer:
    """The shared display without region diffing: every frame the app's renderer drew, drawn again in full by a
    renderer of its own (its caches as warm as the app's), after the measured step. ``replay`` returns the
    seconds the frames drawn since the last call took."""

    def __init__(self, calls: list[tuple[Any, Any]]) -> None:
        import pygame

        self.calls = calls
        self._renderer_type = SharedRenderer
        self.renderer = SharedRenderer()
        self.surface: Any = None
        self._pygame = pygame

    def reset(self) -> None:
        """A new game: a new app, so a new renderer here too (caches as cold as the app's)."""
        self.renderer = self._renderer_type()
        self.calls.clear()

    def replay(self, size: tuple[int, int]) -> float:
        if self.surface is None or self.surface.get_size() != size:
            self.surface = self._pygame.Surface(size)
        took = 0.0
        for view, ui in self.calls:
            start = time.perf_counter()
            self.renderer.full(self.surface, view, ui)
            took += time.perf_counter() - start
        self.calls.clear()
        return took


def _count_commits(driver: AppDriver) -> list[int]:
    """A counter (``[n]``) of the driver's storage commits that wait for an fsync, from now on."""
    commits: list[int] = [0]
    write = driver.storage._write

    def counted(*args: Any, **kwargs: Any) -> Any:
        # storage._write(sql, args, more, durable): count the commits that wait for an fsync
        if kwargs.get("durable", args[3] if len(args) > 3 else True):
            commits[0] += 1
        return write(*args, **kwargs)

    driver.storage._write = counted  # type: ignore[method-assign]
    return commits


def _play_guesses(directory: Path, wanted: int, render_times: list[float] | None = None,
                  no_diff: _NoDiffRenderer | None = None) -> dict[str, list[Any]]:
    """Play random games on the real app until ``wanted`` guesses were made; raw measurements per guess."""
    out: dict[str, list[Any]] = {"latency": [], "oled": [], "update": [], "full": [],
                                 "full_cold": [], "commits": [], "no_diff": []}
    rng = random.Random(5)
    game = 0
    while len(out["latency"]) < wanted and game < 200:
        game += 1
        if no_diff is not None:
            no_diff.reset()
        driver = AppDriver(directory / f"g{game}", seed=game, record=setup_record(1000 + game))
        commits = _count_commits(driver)
        try:
            while len(out["latency"]) < wanted:
                action = policy_action(driver.state, rng)
                if action is None:
                    break
                size = driver.box.display.surface.get_size()
                if not isinstance(action, Guess):
                    driver.play(action)
                    if no_diff is not None:
                        no_diff.replay(size)
                    continue
                if render_times is not None:
                    render_times.clear()
                if no_diff is not None:
                    no_diff.replay(size)  # the frames drawn before this guess are not its own
                commits[0] = 0
                took, nbytes = driver.guess(action)
                if no_diff is not None:
                    out["no_diff"].append(no_diff.replay(size))
                out["commits"].append(commits[0])
                out["latency"].append(took)
                out["oled"].append(nbytes)
                if render_times:
                    out["update"].append(sum(render_times))
                out["full"].extend(_full_redraw_times(driver, 1))
                out["full_cold"].extend(_full_redraw_times(driver, 1, cold=True))
        finally:
            driver.close()
    return out


def app_figures(quick: bool) -> dict[str, Any]:
    render_times: list[float] = []
    calls: list[tuple[Any, Any]] = []
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-") as tmp, _timed_renderer(render_times, calls):
        got = _play_guesses(Path(tmp), 40 if quick else 200, render_times, _NoDiffRenderer(calls))
    latencies = got["latency"]
    full_two = 2 * full_frame_cost("ssd1306")
    per_guess = statistics.median(got["oled"]) if got["oled"] else None
    out: dict[str, Any] = {
        "guess_latency_ms_p50": round(percentile(latencies, 0.5) * 1000, 3),
        "guess_latency_ms_p99": round(percentile(latencies, 0.99) * 1000, 3),
        "storage_fsyncs_per_guess": statistics.median(got["commits"]),
        "oled_bus_bytes_per_guess": per_guess,
        "oled_full_frame_bytes": full_two,
        "oled_guess_fraction": None if per_guess is None else round(per_guess / full_two, 3),
        "oled_i2c_ms_per_guess": None if per_guess is None else round(i2c_ms(per_guess), 2),
        "oled_i2c_ms_full_frames": round(i2c_ms(full_two), 2),
        "guesses_measured": len(latencies),
    }
    if got["update"] and got["full"]:
        update = statistics.median(got["update"]) * 1000
        full = statistics.median(got["full"]) * 1000
        cold = statistics.median(got["full_cold"]) * 1000
        out.update({"display_update_ms": round(update, 3), "display_full_ms": round(full, 3),
                    "display_update_ratio": round(update / full, 3) if full > 0 else None,
                    "display_full_cold_ms": round(cold, 3),
                    "display_update_ratio_cold": round(update / cold, 3) if cold > 0 else None})
    if got["update"] and got["no_diff"]:
        update = statistics.median(got["update"]) * 1000
        no_diff = statistics.median(got["no_diff"]) * 1000
        out.update({"display_guess_full_ms": round(no_diff, 3),
                    "display_diff_ratio": round(update / no_diff, 3) if no_diff > 0 else None})
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        with tempfile.TemporaryDirectory(prefix="duetbox-bench-", dir=shm) as tmp:
            ram = _play_guesses(Path(tmp), 30 if quick else 100)["latency"]
        out["guess_latency_ms_p50_ram_disk"] = round(percentile(ram, 0.5) * 1000, 3)
        out["guess_latency_ms_p99_ram_disk"] = round(percentile(ram, 0.99) * 1000, 3)
    return out


def _full_redraw_times(driver: AppDriver, repeat: int, *, cold: bool = False) -> list[float]:
    """A redraw of everything on the shared display: the app's own renderer (warm caches), or with ``cold`` a
    new renderer (no cached card faces or texts), drawing the current frame in full onto a fresh surface."""
    import pygame

    frame = driver.app.frame()
    renderer = getattr(driver.app.outputs, "_renderer", None)
    if cold and renderer is not None:
        renderer = type(renderer)()
    surface = driver.box.display.surface
    times: list[float] = []
    for _ in range(repeat):
        fresh = pygame.Surface(surface.get_size())
        start = time.perf_counter()
        if renderer is not None:
            renderer.full(fresh, frame.view, frame.shared)
        else:
            outputs._standin_shared(fresh, frame.view, frame.shared)
        times.append(time.perf_counter() - start)
    return times


def storage_figures(quick: bool) -> dict[str, Any]:
    """One committed action (SQLite WAL, synchronous=FULL) on this machine's disk, alone."""
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-") as tmp:
        storage = Storage(Path(tmp))
        try:
            game = storage.new_game(DUET.kind, setup_record(1))
            for seq in range(30 if quick else 200):
                start = time.perf_counter()
                storage.append_action(game, seq, {"type": "guess", "seat": "A", "card": seq % DUET.board.cards})
                times.append(time.perf_counter() - start)
        finally:
            storage.close()
    return {"storage_commit_ms": round(statistics.median(times) * 1000, 3)}


# --- the real process ---------------------------------------------------------------------------------------

def _rss_peak_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def process_figures(quick: bool, idle_seconds: float | None = None) -> dict[str, Any]:
    """Start ``duetbox run --hardware emulator`` (SDL dummy driver) on a game in progress; time its first
    frame (READY=1 on a notify socket of ours), then leave it idle and read its CPU time and peak RSS."""
    idle = idle_seconds if idle_seconds is not None else (2.0 if quick else 10.0)
    runs = 1 if quick else 3
    startups: list[float] = []
    idles: list[float] = []
    rss: list[float] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-") as tmp:
        record = Path(tmp) / "start.json"
        record.write_text(json.dumps(setup_record(3)))
        for run in range(runs):
            got = _one_process(Path(tmp), run, record, idle)
            if isinstance(got, str):
                notes.append(got)
                continue
            startup, cpu, peak = got
            startups.append(startup)
            idles.append(cpu)
            if peak is not None:
                rss.append(peak)
    out: dict[str, Any] = {
        "startup_s": round(statistics.median(startups), 3) if startups else None,
        "idle_cpu_percent": round(statistics.median(idles), 3) if idles else None,
        "peak_rss_mb": round(statistics.median(rss), 1) if rss else None,
        "idle_seconds": idle,
    }
    if notes:
        out["process_notes"] = notes
    return out


def _one_process(tmp: Path, run: int, record: Path, idle: float) -> tuple[float, float, float | None] | str:
    sock_path = tmp / f"notify-{run}.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               NOTIFY_SOCKET=str(sock_path), WATCHDOG_USEC="30000000")
    cmd = [sys.executable, "-m", "device.cli", "run", "--hardware", "emulator", "--data-dir",
           str(tmp / f"data-{run}"), "--start", str(record)]
    root = Path(__file__).resolve().parent.parent
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        sock.settimeout(60)
        ready_at = None
        while ready_at is None:
            try:
                message = sock.recv(4096).decode("utf-8", "replace")
            except TimeoutError:
                return "the app sent no READY=1 within 60 s"
            if "READY=1" in message.split("\n"):
                ready_at = time.perf_counter()
        time.sleep(0.5)  # let start-up work (first pings, lazy imports) settle
        cpu0, wall0 = _cpu_seconds(proc.pid), time.perf_counter()
        time.sleep(idle)
        cpu1, wall1 = _cpu_seconds(proc.pid), time.perf_counter()
        peak = _rss_peak_mb(proc.pid)
        if proc.poll() is not None or cpu0 is None or cpu1 is None:
            err = proc.stderr.read().decode("utf-8", "replace").strip().splitlines() if proc.stderr else []
            return f"the app exited early ({proc.returncode}): {err[-1] if err else 'no message'}"
        return ready_at - start, 100 * (cpu1 - cpu0) / (wall1 - wall0), peak
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr:
            proc.stderr.close()
        sock.close()


#: The app's loop on a mock box that sleeps on its event queue (a condition variable) with the real clock:
#: the loop's own idle cost, without SDL.
_QUEUE_WAIT_CHILD = """
import json, resource, sys, threading, time
from device.app import App
from device.storage import Storage
from hardware.config import load_config
from hardware.events import MonotonicClock
from hardware.mock import MockBox

class WaitingBox(MockBox):
    def _collect(self, timeout):
        return self.queue.wait(timeout)

record, seconds, directory = json.loads(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
box = WaitingBox(load_config(None), clock=MonotonicClock())
app = App(box, Storage(directory), seed=1)
app.start(record)

def measure():
    time.sleep(0.5)
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    time.sleep(seconds)
    r1, t1 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    print(json.dumps(100 * cpu / (t1 - t0)), flush=True)
    box.quit()

threading.Thread(target=measure, daemon=True).start()
app.run()
"""

#: SDL's own wait (what the emulator and the Pi display block in): pygame.event.wait with a 1 s timeout.
_SDL_WAIT_CHILD = """
import json, resource, sys, time
import pygame
pygame.display.init()
pygame.display.set_mode((800, 480))
seconds = float(sys.argv[1])
r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
while time.monotonic() - t0 < seconds:
    pygame.event.wait(1000)
r1, t1 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
print(json.dumps(100 * ((r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)) / (t1 - t0)))
"""


def idle_details(quick: bool) -> dict[str, Any]:
    """Where idle CPU goes: SDL's event wait alone, and the app's loop alone (sleeping on its queue)."""
    seconds = 2.0 if quick else 5.0
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("NOTIFY_SOCKET", None)
    out: dict[str, Any] = {}
    sdl = subprocess.run([sys.executable, "-c", _SDL_WAIT_CHILD, str(seconds)], env=env, cwd=root,
                         capture_output=True, text=True, timeout=120)
    if sdl.returncode == 0:
        out["idle_cpu_percent_sdl_wait"] = round(float(sdl.stdout.strip().splitlines()[-1]), 3)
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-") as tmp:
        loop = subprocess.run([sys.executable, "-c", _QUEUE_WAIT_CHILD, json.dumps(setup_record(3)),
                               str(seconds), tmp], env=env, cwd=root, capture_output=True, text=True, timeout=120)
    if loop.returncode == 0 and loop.stdout.strip():
        out["idle_cpu_percent_queue_wait"] = round(float(loop.stdout.strip().splitlines()[-1]), 3)
    return out


# --- all together -------------------------------------------------------------------------------------------

def measure(quick: bool = False, *, idle_seconds: float | None = None) -> dict[str, Any]:
    """Every figure of the bench (see the module docstring); None where it could not be measured (notes)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    started = time.perf_counter()
    result: dict[str, Any] = {key: None for key in KEYS}
    notes: dict[str, str] = {}
    parts: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("engine", lambda: engine_figures(quick)),
        ("app", lambda: app_figures(quick)),
        ("storage", lambda: storage_figures(quick)),
        ("process", lambda: process_figures(quick, idle_seconds)),
        ("idle details", lambda: idle_details(quick)),
        ("clue checker", lambda: clue_checker_figures(quick)),
        ("deal", lambda: deal_figures(quick)),
    ]
    for name, part in parts:
        try:
            result.update(part())
        except Exception as exc:  # noqa: BLE001 - one part failing must not hide the others' figures
            notes[name] = f"{type(exc).__name__}: {exc}"
    result["targets"] = {name: _verdict(result.get(name), op, limit) for name, (op, limit) in TARGETS.items()}
    result["quick"] = quick
    result["python"] = sys.version.split()[0]
    result["machine"] = _machine()
    result["bench_seconds"] = round(time.perf_counter() - started, 1)
    if notes:
        result["notes"] = notes
    return result


def _verdict(value: Any, op: str, limit: float) -> str:
    if value is None:
        return "not measured"
    ok = value < limit if op == "<" else value > limit
    return f"met ({value} {op} {limit})" if ok else f"MISSED ({value}, target {op} {limit})"


def _machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model or 'unknown CPU'}, {os.cpu_count()} CPU(s)"


def table(result: dict[str, Any]) -> str:
    """The figures as an aligned two-column table, then the targets."""
    lines = []
    for key in KEYS:
        value = result.get(key)
        lines.append(f"{key:<26} {'-' if value is None else value}")
    lines.append("")
    for key in DETAILS + tuple(k for k in result if k.startswith(("clue_", "deal_"))):
        if result.get(key) is not None:
            lines.append(f"  {key:<36} {result[key]}")
    lines.append("")
    for name, verdict in result.get("targets", {}).items():
        lines.append(f"target {name:<19} {verdict}")
    for name, note in result.get("notes", {}).items():
        lines.append(f"note {name}: {note}")
    lines.append(f"machine: {result.get('machine')}; python {result.get('python')}; "
                 f"{'quick' if result.get('quick') else 'full'} run in {result.get('bench_seconds')} s")
    return "\n".join(lines)


# --- Clue checker (issue 16): lemma-table load per language, and one clue check once loaded -------------------
#: Figures of ``clue_checker_figures``; the check's target (issue 26) is 2 ms at p99 on a board the box has prepared.
CLUE_TARGETS: dict[str, tuple[str, float]] = {"clue_check_ms_p99": ("<", 2.0)}
TARGETS.update(CLUE_TARGETS)
#: A deal (issue 26): 25 words drawn from the pack, avoiding the deck of used words, once the pack was loaded.
DEAL_TARGETS: dict[str, tuple[str, float]] = {"deal_ms_p99": ("<", 5.0)}
TARGETS.update(DEAL_TARGETS)


def deal_figures(quick: bool) -> dict[str, Any]:
    """A new game's deal as ``device.screens.flows.deal_words`` does it: the pack by name (``device.packs.load``:
    bundled or custom) and a board's words drawn avoiding the deck of words already used (600 of the pack's), once the
    pack was loaded a first time (``deal_first_ms``: that first load and draw, wall time). The deals are timed in
    CPU time of this thread, as the clue check is: a shared machine's preemption is not the deal's cost. ms."""
    rng = random.Random(26)
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-deal-") as data:
        start = time.perf_counter()
        pack = load_pack_by_name(data, "fr")
        used = list(draw_words(pack, rng, 600))
        first = time.perf_counter() - start
        times = []
        for _ in range(50 if quick else 400):
            start = time.thread_time()
            draw_words(load_pack_by_name(data, "fr"), rng, DUET.board.cards, exclude=used)
            times.append(time.thread_time() - start)
    return {"deal_first_ms": round(first * 1000, 2), "deal_ms_p50": round(statistics.median(times) * 1000, 3),
            "deal_ms_p99": round(percentile(times, 0.99) * 1000, 3)}


def clue_checker_figures(quick: bool) -> dict[str, Any]:
    """Per language: the lemma table's load time in a fresh process (``clue_load_s_<lang>``), and the time of one
    strict clue check against a 25-word board of the pack, the board prepared as the box does when it deals
    (``clue_check_ms_p50`` / ``_p99`` over all languages, in CPU time of the checking thread) and not prepared
    (``clue_check_cold_ms_p50``, wall time, the table already loaded)."""
    child = ("import json, sys, time; from engine import lemmas; t = time.perf_counter(); "
             "lemmas.preload(sys.argv[1]); lemmas.lemmas('x', sys.argv[1]); "
             "print(json.dumps([time.perf_counter() - t, lemmas.available(sys.argv[1])]))")
    root = Path(__file__).resolve().parent.parent
    out: dict[str, Any] = {}
    warm: list[float] = []
    cold: list[float] = []
    rng = random.Random(16)
    for language in CODES:
        got = subprocess.run([sys.executable, "-c", child, language], cwd=root, capture_output=True, text=True,
                             timeout=300)
        seconds, loaded = json.loads(got.stdout.strip().splitlines()[-1]) if got.returncode == 0 else (None, False)
        out[f"clue_load_s_{language}"] = round(seconds, 2) if loaded and seconds is not None else None
        packs = [p for p in bundled_packs() if load_pack(p).language == language]
        if not packs:
            continue
        words = load_pack(packs[0]).words
        for _ in range(5 if quick else 20):
            board = rng.sample(words, DUET.board.cards)
            clue = rng.choice(words)
            start = time.perf_counter()
            check_clue(clue + "s", board, language=language)
            cold.append(time.perf_counter() - start)
            board = rng.sample(words, DUET.board.cards)
            prepare(board, language)
            start = time.thread_time()  # CPU time: a shared machine's preemption is not the checker's cost
            check_clue(rng.choice(words), board, language=language)
            warm.append(time.thread_time() - start)
    if warm:
        out["clue_check_ms_p50"] = round(statistics.median(warm) * 1000, 2)
        out["clue_check_ms_p99"] = round(percentile(warm, 0.99) * 1000, 2)
        out["clue_check_cold_ms_p50"] = round(statistics.median(cold) * 1000, 2)
    return out
