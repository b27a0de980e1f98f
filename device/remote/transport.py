"""The MQTT side: one paho-mqtt client (v2 callback API) running its network loop in its own thread.

Nothing here touches the game: callbacks only put ``(kind, ...)`` tuples on a queue that the app thread drains
(``poll``). paho reconnects by itself (a short backoff); on every (re)connection the client subscribes again,
because sessions are clean: what a box missed while away comes from the retained snapshot (see ``link``).

What a stranger on the broker can throw at a box is bounded here, before the game sees it: the client speaks
MQTT 5 and tells the broker its maximum packet size (64 KiB and a little), so a broker never sends it a bigger
message (Mosquitto drops it for this client); a payload over 64 KiB that still comes is dropped unread; the
queue to the app thread holds at most QUEUE_LIMIT messages (more are dropped, and counted). QoS 1 messages are
acknowledged by the app thread once handled (``ack``), not when they arrive.
"""

from __future__ import annotations

import logging
import queue
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from device.remote.pairing import MAX_PAYLOAD

if TYPE_CHECKING:  # paho is imported where used: `import device` needs no network library
    import paho.mqtt.client as mqtt
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

    from hardware.config import RemoteConfig

log = logging.getLogger("duetbox.remote")

#: The biggest packet the broker may send a box: a 64 KiB payload, its topic and the MQTT header.
MAX_PACKET = 65536 + 1024
#: Messages waiting for the app thread at most (a flood beyond it is dropped, never queued without end).
QUEUE_LIMIT = 2048

#: What the network thread hands the app thread: the broker reached (again), lost, or a message
#: ``("message", topic, payload, retained, mid, qos)``.
Up = tuple[Literal["up"]]
Down = tuple[Literal["down"]]
Message = tuple[Literal["message"], str, bytes, bool, int, int]
TransportEvent = Up | Down | Message


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
    def from_config(cls, remote: RemoteConfig) -> BrokerConfig:
        return cls(host=remote.host or "127.0.0.1", port=remote.port, tls=remote.tls, ca_file=remote.ca_file,
                   username=remote.username, password_file=remote.password_file)

    def describe(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def _no_delay(sock: object) -> None:
    """Small messages leave at once (no Nagle): otherwise a move sent right after an acknowledgement waits for the
    broker's delayed ACK, 40 ms on Linux (measured: the guest's answer to a guess took 44 ms to reach the host)."""
    if not isinstance(sock, socket.socket):  # not a TCP socket (a test's fake, a websocket): nothing to tune
        return
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:  # a closed one
        pass


class Transport:
    """A connected (or reconnecting) MQTT client; ``events`` is filled from paho's thread (``on_event``, when
    set, is called from there after each: the app's loop wakes at once)."""

    def __init__(self, config: BrokerConfig, client_id: str, *, will: tuple[str, bytes] | None = None) -> None:
        import paho.mqtt.client as mqtt  # imported where used: `import device` needs no network library
        from paho.mqtt.enums import CallbackAPIVersion
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.config = config
        self.events: queue.Queue[TransportEvent] = queue.Queue()
        self.on_event: Callable[[], None] | None = None
        self.connected = False
        self.closing = False
        self.overflow = 0  # messages dropped in the network thread (too big, or the queue full)
        self._topics: list[str] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5,
                             manual_ack=True)
        self._connect_props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        self._connect_props.MaximumPacketSize = MAX_PACKET
        client.reconnect_delay_set(min_delay=1, max_delay=2)
        if config.username:
            password = None
            if config.password_file:
                password = Path(config.password_file).read_text(encoding="utf-8").strip()
            client.username_pw_set(config.username, password)
        if config.tls:
            client.tls_set(ca_certs=config.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=False)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    # -- paho's thread -----------------------------------------------------------------------------------------
    def _put(self, event: TransportEvent) -> None:
        self.events.put(event)
        if self.on_event is not None:
            self.on_event()

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: mqtt.ConnectFlags, reason: ReasonCode,
                    _props: Properties | None) -> None:
        if reason.is_failure:
            log.warning("the broker %s refused us: %s", self.config.describe(), reason)
            return
        self.connected = True
        _no_delay(client.socket())
        for topic in self._topics:
            client.subscribe(topic, qos=1)
        self._put(("up",))  # never dropped: the queue has no size of its own (QUEUE_LIMIT is ours)

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: mqtt.DisconnectFlags,
                       reason: ReasonCode, _props: Properties | None) -> None:
        was, self.connected = self.connected, False
        if was and not self.closing:
            log.warning("lost the broker %s (%s): reconnecting", self.config.describe(), reason)
        self._put(("down",))

    def _on_message(self, client: mqtt.Client, _userdata: object, message: mqtt.MQTTMessage) -> None:
        if len(message.payload) > MAX_PAYLOAD or self.events.qsize() >= QUEUE_LIMIT:
            self.overflow += 1  # unread (the app thread counts and logs it); acknowledged so the broker goes on
            client.ack(message.mid, message.qos)
            return
        self._put(("message", message.topic, bytes(message.payload), bool(message.retain), message.mid,
                   message.qos))

    # -- the app thread ----------------------------------------------------------------------------------------
    def subscribe(self, topic: str) -> None:
        self._topics.append(topic)
        if self.connected:
            self.client.subscribe(topic, qos=1)

    def start(self) -> None:
        """Connect in the background (never blocks, never raises for an absent broker: it keeps trying)."""
        self.client.connect_async(self.config.host, self.config.port, keepalive=self.config.keepalive,
                                  clean_start=True, properties=self._connect_props)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1,
                wait: float = 0.0) -> None:
        """Queue a message (paho sends it now, or after reconnecting; QoS 1 retries until acknowledged);
        ``wait``: seconds to wait for it to leave (a last word before closing)."""
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        if wait > 0 and self.connected:
            try:
                info.wait_for_publish(wait)
            except (RuntimeError, ValueError):  # not sent (offline): the partner learns it otherwise
                pass

    def ack(self, mid: int, qos: int) -> None:
        """The app thread has handled the message ``mid``: acknowledge it now (QoS 1)."""
        if qos > 0:
            try:
                self.client.ack(mid, qos)
            except Exception:  # noqa: BLE001 - the connection is gone: the broker forgets it anyway
                pass

    def poll(self, limit: int = QUEUE_LIMIT) -> list[TransportEvent]:
        """At most ``limit`` events (the rest wait for the next poll: one poll never runs without end)."""
        out: list[TransportEvent] = []
        while len(out) < limit:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out
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
