"""The MQTT side: one paho-mqtt client (v2 callback API) running its network loop in its own thread.

Nothing here touches the game: callbacks only put ``(kind, ...)`` tuples on a queue that the app thread drains
(``poll``). paho reconnects by itself (a short backoff); on every (re)connection the client subscribes again,
because sessions are clean: what a box missed while away comes from the retained snapshot (see ``link``).
"""

from __future__ import annotations

import logging
import queue
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("duetbox.remote")


@dataclass(frozen=True)
class BrokerConfig:
    """Where the broker is (the [remote] section of the box's configuration file)."""

    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: str = ""
    username: str = ""
    password_file: str = ""
    keepalive: int = 5  # seconds: a box that vanished is noticed (its will published) within 1.5 x this

    @classmethod
    def from_config(cls, remote: Any) -> BrokerConfig:
        return cls(host=remote.host or "127.0.0.1", port=remote.port, tls=remote.tls, ca_file=remote.ca_file,
                   username=remote.username, password_file=remote.password_file)

    def describe(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def _no_delay(sock: Any) -> None:
    """Small messages leave at once (no Nagle): otherwise a move sent right after an acknowledgement waits for the
    broker's delayed ACK, 40 ms on Linux (measured: the guest's answer to a guess took 44 ms to reach the host)."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (AttributeError, OSError):  # not a TCP socket (a test's fake, a closed one): nothing to tune
        pass


class Transport:
    """A connected (or reconnecting) MQTT client; ``events`` is filled from paho's thread."""

    def __init__(self, config: BrokerConfig, client_id: str, *, will: tuple[str, bytes] | None = None) -> None:
        import paho.mqtt.client as mqtt  # imported where used: `import device` needs no network library
        from paho.mqtt.enums import CallbackAPIVersion

        self.config = config
        self.events: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.connected = False
        self.closing = False
        self._topics: list[str] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True,
                             protocol=mqtt.MQTTv311)
        client.reconnect_delay_set(min_delay=1, max_delay=2)
        if config.username:
            password = None
            if config.password_file:
                password = Path(config.password_file).read_text(encoding="utf-8").strip()
            client.username_pw_set(config.username, password)
        if config.tls:
            client.tls_set(ca_certs=config.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    # -- paho's thread -----------------------------------------------------------------------------------------
    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            log.warning("the broker %s refused us: %s", self.config.describe(), reason)
            return
        self.connected = True
        _no_delay(client.socket())
        for topic in self._topics:
            client.subscribe(topic, qos=1)
        self.events.put(("up",))

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        was, self.connected = self.connected, False
        if was and not self.closing:
            log.warning("lost the broker %s (%s): reconnecting", self.config.describe(), reason)
        self.events.put(("down",))

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        self.events.put(("message", message.topic, bytes(message.payload), bool(message.retain)))

    # -- the app thread ----------------------------------------------------------------------------------------
    def subscribe(self, topic: str) -> None:
        self._topics.append(topic)
        if self.connected:
            self.client.subscribe(topic, qos=1)

    def start(self) -> None:
        """Connect in the background (never blocks, never raises for an absent broker: it keeps trying)."""
        self.client.connect_async(self.config.host, self.config.port, keepalive=self.config.keepalive)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        """Queue a message (paho sends it now, or after reconnecting; QoS 1 retries until acknowledged)."""
        self.client.publish(topic, payload, qos=qos, retain=retain)

    def poll(self) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def wait(self, timeout: float) -> None:
        """Block until something arrives (or ``timeout``) without taking it off the queue."""
        try:
            item = self.events.get(timeout=timeout)
        except queue.Empty:
            return
        # put it back at the front: a tiny re-queue keeps the order for the next poll
        rest = self.poll()
        for one in (item, *rest):
            self.events.put(one)

    def drop(self) -> None:
        """Cut the connection as a failing network would (no DISCONNECT: the broker publishes our will)."""
        sock = self.client.socket()
        if sock is not None:
            try:
                sock.close()
            except OSError:  # pragma: no cover
                pass

    def close(self, *, clean: bool = True) -> None:
        """Stop: ``clean`` sends DISCONNECT first (no will); otherwise the socket just dies (a killed box)."""
        self.closing = True
        if clean:
            try:
                self.client.disconnect()
            except Exception:  # noqa: BLE001 - closing must never raise
                pass
        else:
            self.drop()
        self.client.loop_stop()
        self.connected = False
