import io

import pytest

from device.cli import main as cli
from device.commands import hw_test
from hardware.factory import open_box
from hardware.mock import FakeClock
from hardware.testpattern import oled_pattern, ring_chase


class TickingClock(FakeClock):
    """Fake time that moves 10 ms each time it is read, so a polling loop makes progress without sleeping."""

    def now(self) -> float:
        self.advance(0.01)
        return super().now()


def test_config_check_command_clean_file(tmp_path, capsys):
    path = tmp_path / "ok.toml"
    path.write_text("[ring]\ncount = 12\n")
    assert cli(["config", "check", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_config_check_command_lists_problems_and_exits_1(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[buttons.A]\nup = 10\ndown = 10\nflavour = 1\n")
    assert cli(["config", "check", str(path)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith(f"{path}: ") for line in lines)
    assert any("unknown key" in line for line in lines)
    assert any("GPIO10 is used twice" in line for line in lines)


def test_config_check_command_missing_file(tmp_path, capsys):
    assert cli(["config", "check", str(tmp_path / "nope.toml")]) == 1
    assert "file not found" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["config"], ["config", "check"], ["config", "fix", "x"]])
def test_config_check_command_usage_errors(argv, capsys):
    assert cli(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_hw_test_prints_events_and_ends_on_menu_hold():
    box = open_box("mock", clock=TickingClock())
    box.press("A.ok")
    box.touch(4)
    box.touch_at(0.5, 0.25)
    box.type_text(None, "x")
    box.press("menu")
    out = io.StringIO()
    seen = hw_test.run_test(box, out, seconds=None)
    text = out.getvalue()
    assert seen == 7  # each tap is a touch and an untouch
    assert "seat A  ok     press" in text and "touch   card 4" in text and "x=0.500 y=0.250" in text
    assert "MENU held" in text
    assert box.oleds["A"].image.tobytes() == oled_pattern("A").tobytes()
    assert box.oleds["B"].image.tobytes() == oled_pattern("B").tobytes()
    assert box.buttons.ok_leds == {"A": True, "B": True}
    assert len(box.ring.frames) > 30  # the chase went round
    assert box.display.presents == 1
    box.close()


def test_hw_test_menu_released_early_does_not_end():
    box = open_box("mock", clock=TickingClock())
    box.tap("menu")
    out = io.StringIO()
    hw_test.run_test(box, out, seconds=5)
    assert "MENU held" not in out.getvalue()
    box.close()


def test_hw_test_quit_event_ends():
    box = open_box("mock", clock=TickingClock())
    box.quit()
    assert hw_test.run_test(box, io.StringIO(), seconds=None) == 1
    box.close()


def test_hw_test_command_on_mock(capsys):
    assert cli(["hw-test", "--hardware", "mock", "--seconds", "0"]) == 0
    assert "0 event(s)" in capsys.readouterr().out


def test_hw_test_command_on_emulator(capsys):
    assert cli(["hw-test", "--hardware", "emulator", "--seconds", "0.1"]) == 0


def test_hw_test_command_bad_config_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[ring]\ncount = 7\n")
    assert cli(["hw-test", "--hardware", "mock", "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ring.count" in err[0]


def test_hw_test_command_off_a_pi_says_what_is_missing(capsys, monkeypatch):
    monkeypatch.delenv("DUETBOX_CONFIG", raising=False)
    assert cli(["hw-test", "--hardware", "pi", "--seconds", "0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("duetbox hw-test: ")
    assert "Traceback" not in err[0]


def test_testpattern_ring_chase_goes_round():
    frames = [ring_chase(12, i) for i in range(24)]
    heads = [max(range(12), key=lambda k: sum(f[k])) for f in frames]
    assert heads[:12] == list(range(12))
    assert frames[0][0] == (255, 0, 0) and frames[12][0] == (0, 255, 0)
