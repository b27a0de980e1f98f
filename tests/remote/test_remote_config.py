"""The [remote] section of the box's configuration file, checked by `duetbox config check`."""

from __future__ import annotations

from pathlib import Path

from device.commands import config as config_command
from device.remote.transport import BrokerConfig
from hardware.config import check_config_file, load_config


def test_a_remote_section_is_read_and_reaches_the_broker_config(tmp_path: Path) -> None:
    secret = tmp_path / "password"
    secret.write_text("s3cret\n", encoding="utf-8")
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    path = tmp_path / "config.toml"
    path.write_text(f'[remote]\nhost = "broker.example.org"\nport = 8883\ntls = true\nca_file = "{ca}"\n'
                    f'username = "anna"\npassword_file = "{secret}"\n', encoding="utf-8")
    assert check_config_file(path) == []
    broker = BrokerConfig.from_config(load_config(path).remote)
    assert (broker.host, broker.port, broker.tls, broker.username) == ("broker.example.org", 8883, True, "anna")
    assert load_config(None).remote.port == 1883  # the bundled default: a broker on this machine


def test_bad_remote_settings_get_one_line_each(tmp_path: Path, capsys: object) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[remote]\nhost = "my broker"\nport = 70000\npassword_file = "/nonexistent/pw"\n'
                    'ca_file = "/nonexistent/ca.pem"\nsecret = 1\n', encoding="utf-8")
    problems = check_config_file(path)
    text = "\n".join(problems)
    for needle in ("remote.secret: unknown key", "remote.host", "remote.port: 70000", "remote.password_file",
                   "remote.ca_file"):
        assert needle in text
    assert config_command.main(["check", str(path)]) == 1


def test_only_a_configuration_with_a_remote_section_offers_remote_play(tmp_path: Path) -> None:
    """`duetbox run` composes remote play in only with `--remote` or a [remote] section: a box with neither plays
    locally only (no remote subclass of the app is started on every box)."""
    plain = tmp_path / "plain.toml"
    plain.write_text("", encoding="utf-8")
    with_remote = tmp_path / "remote.toml"
    with_remote.write_text('[remote]\nhost = "127.0.0.1"\n', encoding="utf-8")
    assert not load_config(None).remote.enabled and not load_config(plain).remote.enabled
    assert load_config(with_remote).remote.enabled
