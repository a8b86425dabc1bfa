"""Run one function in several threads released at the same instant (for race tests)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def at_once(count: int, work: Callable[[], T]) -> list[T]:
    """``work()``'s results from ``count`` threads that start together; the first error any raised is raised."""
    start = threading.Barrier(count)
    results: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        start.wait()
        try:
            results.append(work())
        except BaseException as exc:  # re-raised in the calling thread below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
