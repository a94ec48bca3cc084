"""Work the server does beside its event loop (drawing a game's cards, a bot thinking,
playing a record back) in daemon threads: a stopping server answers SIGTERM at once instead
of waiting for them, as it would for the event loop's own worker threads."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def in_thread(work: Callable[..., T], *args: Any) -> asyncio.Future[T]:
    """`work(*args)` in a daemon thread of its own; its result (or its exception) in the
    future returned, set on the running loop. A result that comes after the loop closed is
    dropped."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def run() -> None:
        result: Any = None
        error: BaseException | None = None
        try:
            result = work(*args)
        except BaseException as err:  # handed to the awaiting coroutine
            error = err
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(
        target=run, daemon=True, name=f"century-{getattr(work, '__name__', 'work')}"
    ).start()
    return future
