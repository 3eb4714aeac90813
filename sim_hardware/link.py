"""The device end of a real byte line, for simulated devices.

`PtyLink` is a pseudo-terminal: the driver opens `PtyLink.path` as it would open
``/dev/serial/by-id/usb-...``. That path is a symbolic link which follows the pty when the
simulated cable is pulled (`disconnect`: the pty is closed and the link removed, so the
driver's reads fail like a yanked USB adapter's) and plugged back (`reconnect`: a new pty,
the link re-pointed atomically).

`TcpLink` listens on a loopback port for one ``socket://127.0.0.1:PORT`` client at a time.

Like a real UART with no flow control, a link never blocks its writer: bytes written while
nobody reads, or while the cable is out, are lost and counted in `dropped_bytes`. The
protocol's resends make up for it, which is exactly what the tests check.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import socket
import tempfile
import threading
import tty
from typing import Protocol


class Link(Protocol):
    url: str

    @property
    def connected(self) -> bool: ...
    def write(self, data: bytes) -> None: ...
    def read(self, timeout: float) -> bytes: ...
    def disconnect(self) -> None: ...
    def reconnect(self) -> None: ...
    def close(self) -> None: ...


class PtyLink:
    def __init__(self, directory: str | None = None, name: str = "shoe") -> None:
        self._own_dir = directory is None
        self._dir = directory or tempfile.mkdtemp(prefix="tablectl-sim-")
        self.url = os.path.join(self._dir, name)
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._closed = False
        self.dropped_bytes = 0
        self.reconnect()

    @property
    def path(self) -> str:
        return self.url

    @property
    def connected(self) -> bool:
        return self._master is not None

    @property
    def tty_name(self) -> str | None:
        """The current /dev/pts/N, or None while the cable is out."""
        slave = self._slave
        return None if slave is None else os.ttyname(slave)

    def reconnect(self) -> None:
        with self._lock:
            if self._closed or self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo or line editing before the driver opens it
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            temp = f"{self.url}.{os.getpid()}.tmp"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            os.symlink(os.ttyname(slave), temp)
            os.replace(temp, self.url)

    def disconnect(self) -> None:
        with self._lock:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.url)
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None

    def write(self, data: bytes) -> None:
        with self._lock:
            master = self._master
            if master is None:
                self.dropped_bytes += len(data)
                return
            view = memoryview(data)
            while view:
                try:
                    written = os.write(master, view)
                except BlockingIOError:
                    self.dropped_bytes += len(view)  # receiver not reading: overrun
                    return
                except OSError as exc:
                    if exc.errno != errno.EIO:
                        raise
                    self.dropped_bytes += len(view)
                    return
                view = view[written:]

    def read(self, timeout: float) -> bytes:
        master = self._master
        if master is None:
            threading.Event().wait(timeout)  # the cable is out: nothing can arrive
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
        except (OSError, ValueError):
            return b""  # closed under us by disconnect()
        if not ready:
            return b""
        with self._lock:
            if self._master != master:
                return b""
            try:
                return os.read(master, 4096)
            except (BlockingIOError, OSError):
                return b""

    def close(self) -> None:
        self.disconnect()
        with self._lock:
            self._closed = True
        if self._own_dir:
            with contextlib.suppress(OSError):
                os.rmdir(self._dir)


class TcpLink:
    def __init__(self, port: int = 0, host: str = "127.0.0.1") -> None:
        self._host = host
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self._closed = False
        self.dropped_bytes = 0
        self.port = port
        self.reconnect()
        self.url = f"socket://{host}:{self.port}"

    @property
    def connected(self) -> bool:
        return self._client is not None

    def reconnect(self) -> None:
        with self._lock:
            if self._closed or self._listener is not None:
                return
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((self._host, self.port))
            listener.listen(1)
            self.port = listener.getsockname()[1]
            self._listener = listener

    def disconnect(self) -> None:
        with self._lock:
            for sock in (self._client, self._listener):
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
                    sock.close()
            self._client = self._listener = None

    def write(self, data: bytes) -> None:
        with self._lock:
            client = self._client
            if client is None:
                self.dropped_bytes += len(data)
                return
            try:
                client.sendall(data)
            except OSError:
                self.dropped_bytes += len(data)
                self._drop_client()

    def _drop_client(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def read(self, timeout: float) -> bytes:
        client, listener = self._client, self._listener
        watch = client or listener
        if watch is None:
            threading.Event().wait(timeout)
            return b""
        try:
            ready, _, _ = select.select([watch], [], [], timeout)
        except (OSError, ValueError):
            return b""
        if not ready:
            return b""
        with self._lock:
            if client is None:
                if listener is not None and self._listener is listener and self._client is None:
                    accepted, _ = listener.accept()
                    accepted.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    self._client = accepted
                return b""
            if self._client is not client:
                return b""
            try:
                data = client.recv(4096)
            except OSError:
                data = b""
            if not data:
                self._drop_client()  # the controller went away; accept the next one
            return data

    def close(self) -> None:
        self.disconnect()
        with self._lock:
            self._closed = True
