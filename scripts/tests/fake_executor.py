"""An executor (gorinkit/dispatch.py's interface) that stands for a cluster in the tests: named
workers, each task run in this process when the driver waits, and workers that can be lost
mid-task on purpose."""

from __future__ import annotations

from typing import Any, Callable

from gorinkit import dispatch


class FakeExecutor(dispatch.Executor):
    """Runs each task on the first worker that is alive and idle, when the driver waits (so
    several tasks are in flight at once, as on a cluster). `lose(args)` true for a task's
    arguments kills the worker that starts it: the task raises TaskLost and that worker takes no
    more tasks. `shares_memory` False: tasks get their arguments as a cluster's would, never the
    driver's objects (the tests pass nothing shared)."""

    shares_memory = False
    description = "fake workers"

    def __init__(self, workers: int = 3, slots: int = 2, lose: Callable[[tuple], bool] = lambda args: False,
                 times: int = 1):
        self.alive = [f"w{i}" for i in range(1, workers + 1)]
        self.slots = slots
        self.lose = lose
        self.losses_left = times  # how many workers the plan may lose in all
        self.queued: list[int] = []
        self.done: dict[int, tuple[str, Any, BaseException | None]] = {}
        self.tasks: dict[int, tuple[Callable, tuple]] = {}
        self.runs: list[tuple[str, tuple]] = []  # (worker, args) of every start, in order
        self.most_in_flight = 0
        self.cancelled: list[int] = []
        self.closed = False
        self.next_handle = 0

    def submit(self, fn: Callable, *args: Any) -> int:
        handle = self.next_handle
        self.next_handle += 1
        self.tasks[handle] = (fn, args)
        self.queued.append(handle)
        self.most_in_flight = max(self.most_in_flight, len(self.queued) + len(self.done))
        return handle

    def ready(self, handles: list, timeout: float) -> list:
        for handle in list(self.queued):
            self.queued.remove(handle)
            fn, args = self.tasks[handle]
            if not self.alive:
                raise AssertionError("no worker left")
            worker = self.alive[handle % len(self.alive)]
            self.runs.append((worker, args))
            if self.losses_left and self.lose(args):
                self.losses_left -= 1
                self.alive.remove(worker)
                self.done[handle] = (worker, None, dispatch.TaskLost(f"{worker} lost"))
                continue
            try:
                self.done[handle] = (worker, fn(*args), None)
            except Exception as e:  # the task's own failure, handed to the driver as a result
                self.done[handle] = (worker, None, e)
        return [h for h in handles if h in self.done]

    def result(self, handle: Any) -> Any:
        _, value, error = self.done.pop(handle)
        if error is not None:
            raise error
        return value

    def cancel(self, handles: list) -> None:
        self.cancelled.extend(handles)

    def close(self) -> None:
        self.closed = True

    def workers_of(self, match: Callable[[tuple], bool]) -> list[str]:
        """The workers that started the tasks whose arguments `match` accepts, in order."""
        return [w for w, args in self.runs if match(args)]
