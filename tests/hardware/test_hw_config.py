from pathlib import Path

import pytest

from hardware.config import ConfigError, HardwareConfig, check_config_file, load_config


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "config.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_config_default_loads_and_is_clean():
    cfg = load_config(None)
    assert isinstance(cfg, HardwareConfig)
    assert cfg.oleds["A"].address == 0x3C and cfg.oleds["B"].address == 0x3D
    assert cfg.oleds["B"].rotation == 2
    assert cfg.ring.count in (12, 16, 24)
    pins = cfg.buttons.all_inputs()
    assert len(pins) == 13 and len(set(pins.values())) == 13


def test_config_default_file_passes_check():
    default = Path(__file__).resolve().parents[2] / "hardware" / "data" / "default.toml"
    assert check_config_file(default) == []


def test_config_partial_file_keeps_defaults(tmp_path):
    cfg = load_config(write(tmp_path, "[ring]\ncount = 24\n[oled.A]\nmodel = \"sh1106\"\n"))
    assert cfg.ring.count == 24
    assert cfg.oleds["A"].model == "sh1106" and cfg.oleds["A"].address == 0x3C
    assert cfg.buttons.A.ok == load_config(None).buttons.A.ok


def test_config_ok_led_false_means_none(tmp_path):
    cfg = load_config(write(tmp_path, "[buttons.A]\nok_led = false\n"))
    assert cfg.buttons.A.ok_led is None and cfg.buttons.B.ok_led is not None


def test_config_check_reports_every_problem_one_line_each(tmp_path):
    path = write(tmp_path, """
colour = "red"
[buttons]
menu = "26"
[buttons.A]
up = 2
down = 11
left = 23
[ring]
count = 10
brightness = 1.5
""")
    problems = check_config_file(path)
    text = "\n".join(problems)
    assert all("\n" not in p for p in problems)
    assert "colour: unknown key" in text
    assert "buttons.menu: expected a GPIO number, got a string" in text
    assert "buttons.A.up: GPIO2 clashes with I2C SDA" in text
    assert "buttons.A.down: GPIO11 clashes with SPI0 SCLK" in text
    assert "GPIO23 is used twice: buttons.A.left, buttons.B.up" in text
    assert "ring.count: 10 LEDs" in text
    assert "ring.brightness: 1.5 is out of range" in text
    assert len(problems) == 7


def test_config_check_spi_mosi_and_i2c_scl_clash(tmp_path):
    problems = check_config_file(write(tmp_path, "[buttons.B]\nok = 10\nstop = 3\n"))
    assert any("buttons.B.ok: GPIO10 clashes with SPI0 MOSI" in p for p in problems)
    assert any("buttons.B.stop: GPIO3 clashes with I2C SCL" in p for p in problems)


def test_config_check_ok_led_counts_as_pin(tmp_path):
    problems = check_config_file(write(tmp_path, "[buttons.A]\nok_led = 26\n"))
    assert problems == ["GPIO26 is used twice: buttons.menu, buttons.A.ok_led"]


def test_config_check_wrong_types(tmp_path):
    problems = check_config_file(write(tmp_path, """
[oled.A]
address = "0x3C"
rotation = 1.0
[display]
fullscreen = 1
[buttons]
A = 3
"""))
    assert "oled.A.address: expected an integer, got a string '0x3C'" in problems
    assert "oled.A.rotation: expected an integer, got a number 1.0" in problems
    assert "display.fullscreen: expected true or false, got an integer 1" in problems
    assert "buttons.A: expected a table, got an integer 3" in problems


def test_config_check_same_oled_address(tmp_path):
    problems = check_config_file(write(tmp_path, "[oled.B]\naddress = 0x3C\n"))
    assert len(problems) == 1 and "both use address 0x3c on bus 1" in problems[0]
    # on two buses the same address is fine
    assert check_config_file(write(tmp_path, "[oled.B]\naddress = 0x3C\nport = 3\n")) == []


def test_config_check_values_out_of_range(tmp_path):
    problems = check_config_file(write(tmp_path, """
[oled.A]
model = "ssd1309"
rotation = 4
[ring]
driver = "pwm"
[display]
width = 640
height = 400
[buttons.B]
up = 40
"""))
    text = "\n".join(problems)
    assert "oled.A.model: 'ssd1309' is not one of ssd1306, sh1106" in text
    assert "oled.A.rotation: 4" in text
    assert "ring.driver: 'pwm'" in text
    assert "display: 640x400 is outside" in text
    assert "buttons.B.up: GPIO40 does not exist" in text


def test_config_check_unreadable_files(tmp_path):
    assert check_config_file(tmp_path / "missing.toml") == ["file not found"]
    bad = write(tmp_path, "[ring\ncount = 3")
    (problem,) = check_config_file(bad)
    assert problem.startswith("not valid TOML")


def test_config_load_raises_config_error_with_all_problems(tmp_path):
    path = write(tmp_path, "[buttons.A]\nup = 2\ndown = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert isinstance(info.value, ValueError)
    assert len(info.value.problems) == 2
    assert str(path) in str(info.value) and "1 more problem" in str(info.value)


def test_config_is_frozen():
    cfg = load_config(None)
    with pytest.raises(AttributeError):
        cfg.ring = None  # type: ignore[misc]


def test_config_refuses_a_ring_brightness_the_supply_cannot_carry(tmp_path):
    """brightness 1.0 on 16 LEDs is about 1 A: more than a 3 A supply leaves once the rest of the box peaks."""
    problems = check_config_file(write(tmp_path, "[ring]\nbrightness = 1.0\n"))
    assert len(problems) == 1 and problems[0].startswith("ring.brightness: 1 x 16 LEDs x 60 mA = 960 mA")
    assert "at most 0.62" in problems[0] and "\n" not in problems[0]
    assert check_config_file(write(tmp_path, "[ring]\nbrightness = 0.6\n")) == []
    assert check_config_file(write(tmp_path, "[ring]\ncount = 24\nbrightness = 0.5\n"))  # 720 mA > 600
    # a bigger supply (the Pi 5 build's 5 A inlet) carries a full-white ring
    big = "[ring]\nbrightness = 1.0\n[power]\nsupply_ma = 5000\nothers_ma = 3000\n"
    assert check_config_file(write(tmp_path, big)) == []
    assert any("power.others_ma" in p for p in check_config_file(
        write(tmp_path, "[power]\nsupply_ma = 2000\nothers_ma = 2400\n")))
    with pytest.raises(ConfigError, match="ring.brightness"):
        load_config(write(tmp_path, "[ring]\nbrightness = 0.9\n"))


def test_config_power_defaults_are_the_budget_of_box_toml():
    """default.toml's power figures are the ones docs/hardware.md's budget computes from box.toml's parts."""
    from hardware.config import RING_LED_MA
    from hardware.layout import load_layout

    lay, cfg = load_layout(), load_config(None)
    assert (cfg.power.supply_ma, cfg.power.others_ma) == (lay.supply_ma, lay.others_ma)
    assert RING_LED_MA == lay.led_ma
    assert cfg.ring.brightness <= lay.max_brightness(cfg.ring.count)
    pi5 = lay.with_choice(board="pi5", power_inlet="usbc_pd")
    assert (pi5.supply_ma, pi5.others_ma) == (5000, 3000)


def test_config_keeps_the_amplifiers_pins_off_the_buttons_unless_there_is_none(tmp_path):
    """GPIO18-21 are the I2S amplifier's; a box wired before it (seat B on 20 and 21) says it has none."""
    old = "[buttons.B]\nok = 20\nstop = 21\n"
    problems = check_config_file(write(tmp_path, old))
    assert any(p.startswith("buttons.B.ok: GPIO20 clashes with I2S") for p in problems)
    assert any(p.startswith("buttons.B.stop: GPIO21 clashes with I2S DOUT") for p in problems)
    assert check_config_file(write(tmp_path, old + "[sound]\namplifier = false\n")) == []
    assert any("GPIO10 clashes" in p for p in check_config_file(
        write(tmp_path, "[buttons.B]\nok = 10\n[sound]\namplifier = false\n")))
