"""What guards `century serve` below its routes: every response's security headers, the
connections each client may hold and how long a request may take to arrive, and the server's
own words for what a client or a stop cuts short.

A request must arrive whole (its head and its body) within `REQUEST_SECONDS` of its first
byte, and a new connection must start one within that time: a client that sends slowly or
not at all is disconnected, so half-sent heads and declared but unsent bodies cannot hold the
server's descriptors. A client (an address) holds at most `CLIENT_CONNECTIONS` connections at
once; one more is closed as it opens. An idle connection between requests is closed after
uvicorn's keep-alive timeout.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

REQUEST_SECONDS = 30.0
"""How long a request (head and body) may take to arrive, from its first byte."""
CLIENT_CONNECTIONS = 64
"""The connections one client address may hold at once."""
SERVER_CONNECTIONS = 512
"""The connections the server serves at once (uvicorn's ``limit_concurrency``: more are
answered 503), below the descriptors a process is usually allowed (1024)."""
KEEP_ALIVE_SECONDS = 5
"""How long an idle connection is kept between requests."""
MAX_HEAD_BYTES = 16_384
"""The largest request head (uvicorn's ``h11_max_incomplete_event_size``)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware: every HTTP response carries `headers` (unless it sets one itself),
    Starlette's own 404 and 405 included."""

    def __init__(self, app: App, headers: Mapping[str, str]) -> None:
        self.app = app
        self.headers = [
            (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = list(message.get("headers", []))
                names = {name.lower() for name, _ in given}
                message["headers"] = given + [h for h in self.headers if h[0] not in names]
            await send(message)

        await self.app(scope, receive, with_headers)


def protocol(
    request_seconds: float = REQUEST_SECONDS, client_connections: int = CLIENT_CONNECTIONS
) -> type:
    """uvicorn's HTTP protocol (h11) with the bounds above: `request_seconds` for a request
    to arrive, `client_connections` per client address (a count of this server's own)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    held: Counter[str] = Counter()

    class Guarded(H11Protocol):
        deadline: asyncio.TimerHandle | None = None
        address = ""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.address = str(self.client[0]) if self.client else ""
            held[self.address] += 1
            if held[self.address] > client_connections:
                transport.close()  # connection_lost follows and counts it out
                return
            self._start()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop()
            held[self.address] -= 1
            if held[self.address] <= 0:
                del held[self.address]
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.deadline is None and (self.cycle is None or self.cycle.response_complete):
                self._start()  # the first byte of the next request on this connection
            super().data_received(data)
            cycle = self.cycle
            if cycle is not None and not cycle.more_body and not cycle.response_complete:
                self._stop()  # the request arrived whole (a new one: the last is answered)

        def _start(self) -> None:
            self._stop()
            self.deadline = self.loop.call_later(request_seconds, self._too_slow)

        def _stop(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            self.deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return Guarded


def say(line: str) -> None:
    """Print one line of the server's on its terminal (standard error)."""
    sys.stderr.write(f"century serve: {line}\n")
    sys.stderr.flush()


class OwnWords(logging.Filter):
    """Turns uvicorn's reports of requests a stop cut short (a line, then a traceback per
    request) into one line of the server's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if "graceful shutdown exceeded" in text:
            count = record.args[0] if isinstance(record.args, tuple) and record.args else "some"
            say(f"stopped while {count} request(s) were still arriving or running; cut short")
            return False
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, asyncio.CancelledError):
            return False  # told above, with the stop
        if type(error).__name__ == "ClientDisconnect":
            say("a client left before its request arrived whole; nothing was changed")
            return False
        return True


def quiet_cut_requests() -> None:
    """Have uvicorn's error log tell cut-short requests in one line (`OwnWords`)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OwnWords) for f in logger.filters):
        logger.addFilter(OwnWords())
