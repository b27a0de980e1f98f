import logging

from hardware.faults import FaultGuard
from hardware.mock import FakeClock


class Flaky:
    def __init__(self):
        self.fail = 0
        self.writes = 0
        self.reopens = 0

    def write(self):
        if self.fail:
            self.fail -= 1
            raise OSError(121, "Remote I/O error")
        self.writes += 1

    def reopen(self):
        self.reopens += 1


def test_faults_guard_logs_once_per_burst_and_backs_off(caplog):
    clock, dev = FakeClock(), Flaky()
    guard = FaultGuard("OLED A", clock, dev.reopen, first_delay=0.5, max_delay=4)
    dev.fail = 5
    with caplog.at_level(logging.INFO, logger="duetbox.hardware"):
        assert guard.run(dev.write) is False
        assert guard.run(dev.write) is False  # inside the backoff: skipped, not even tried
        assert dev.fail == 4
        delays = []
        for _ in range(4):
            delays.append(guard.next_try - clock.now())
            clock.advance(guard.next_try - clock.now())
            guard.run(dev.write)
        assert delays == [0.5, 1.0, 2.0, 4.0]
        clock.advance(4)
        assert guard.run(dev.write) is True
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    infos = [r for r in caplog.records if r.levelno == logging.INFO]
    assert len(warnings) == 1 and "OLED A" in warnings[0].getMessage()
    assert len(infos) == 1 and "back" in infos[0].getMessage()
    assert dev.reopens == 5  # every retry re-initialises first
    assert not guard.failed and guard.faults == 1


def test_faults_guard_new_burst_logs_again(caplog):
    clock, dev = FakeClock(), Flaky()
    guard = FaultGuard("ring", clock, dev.reopen)
    with caplog.at_level(logging.WARNING, logger="duetbox.hardware"):
        for _ in range(2):
            dev.fail = 1
            guard.run(dev.write)
            clock.advance(1)
            assert guard.run(dev.write)
    assert len(caplog.records) == 2 and guard.faults == 2


def test_faults_guard_reopen_failure_counts_as_fault():
    clock, dev = FakeClock(), Flaky()

    def bad_reopen():
        raise OSError(2, "No such device")

    guard = FaultGuard("ring", clock, bad_reopen, first_delay=1)
    dev.fail = 1
    guard.run(dev.write)
    clock.advance(1)
    assert guard.run(dev.write) is False and dev.writes == 0
    assert guard.next_try - clock.now() == 2


def test_faults_guard_does_not_swallow_programming_errors():
    guard = FaultGuard("x", FakeClock(), lambda: None)

    def boom():
        raise ValueError("bug")

    try:
        guard.run(boom)
    except ValueError:
        pass
    else:
        raise AssertionError("ValueError must propagate")
