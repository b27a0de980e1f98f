"""The broker fixture: a real Mosquitto on 127.0.0.1 on a free port, started and stopped for each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from remotebox import Broker, _free_port, _mosquitto, close_all


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    binary = _mosquitto()
    if binary is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run installs it)")
    port = _free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n",
                    encoding="utf-8")
    b = Broker(binary, port, conf)
    b.start()
    try:
        yield b
    finally:
        close_all()
        b.stop()

