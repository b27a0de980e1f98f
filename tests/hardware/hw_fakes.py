"""Fakes of the Pi buses for the pi backend tests: an SMBus with an OLED controller behind it, and spidev."""

from __future__ import annotations

from PIL import Image

from hardware.oled import PAGE_BYTES, PAGES, unpack_pages


class FakeOledBus:
    """An smbus2-like bus with one SSD1306 or SH1106 at ``address``; keeps the controller's page RAM.

    Only the addressing commands matter here: SSD1306 column/page windows (0x21 .. 0x22 ..), SH1106 page and
    column selects (0xB0+p, low, high). Everything else (the init sequence) is counted and ignored.
    """

    def __init__(self, model: str = "ssd1306", address: int = 0x3C) -> None:
        self.model = model
        self.address = address
        self.ram = bytearray(PAGES * PAGE_BYTES)
        self.present = True
        self.wire_bytes = 0
        self.data_bytes = 0
        self.commands = 0
        self.window = (0, 127, 0, 7)
        self.col, self.page = 0, 0

    def _check(self, addr: int) -> None:
        if not self.present or addr != self.address:
            raise OSError(121, "Remote I/O error")

    def write_i2c_block_data(self, addr: int, mode: int, data: list[int]) -> None:
        self._check(addr)
        self.wire_bytes += 2 + len(data)
        if mode == 0x00:
            self.commands += 1
            self._command(data)
        else:
            self.data_bytes += len(data)
            for value in data:
                self._put(value)

    def _command(self, cmd: list[int]) -> None:
        if self.model == "ssd1306" and len(cmd) == 6 and cmd[0] == 0x21 and cmd[3] == 0x22:
            self.window = (cmd[1], cmd[2], cmd[4], cmd[5])
            self.col, self.page = cmd[1], cmd[4]
        elif self.model == "sh1106" and len(cmd) == 3 and 0xB0 <= cmd[0] <= 0xB7:
            self.page = cmd[0] - 0xB0
            self.col = ((cmd[2] & 0x0F) << 4 | (cmd[1] & 0x0F)) - 2

    def _put(self, value: int) -> None:
        if 0 <= self.col < PAGE_BYTES and 0 <= self.page < PAGES:
            self.ram[self.page * PAGE_BYTES + self.col] = value
        self.col += 1
        if self.model == "ssd1306" and self.col > self.window[1]:
            self.col = self.window[0]
            self.page = self.page + 1 if self.page < self.window[3] else self.window[2]

    def glass(self) -> Image.Image:
        return unpack_pages([bytes(self.ram[p * PAGE_BYTES:(p + 1) * PAGE_BYTES]) for p in range(PAGES)])

    def close(self) -> None:
        pass


class FakeSpiDev:
    def __init__(self) -> None:
        self.opened: tuple[int, int] | None = None
        self.max_speed_hz = 0
        self.mode = -1
        self.writes: list[bytes] = []
        self.closed = False

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


class FakeSpidevModule:
    def __init__(self) -> None:
        self.devices: list[FakeSpiDev] = []

    def SpiDev(self) -> FakeSpiDev:  # noqa: N802 - the spidev module's name
        dev = FakeSpiDev()
        self.devices.append(dev)
        return dev
