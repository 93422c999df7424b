"""Where a run's tasks (a game, or a slice of games) execute: threads of this process, each
starting engine processes (the default), or the workers of a Ray cluster (`--ray ADDRESS`). The
scripts' driver code is one loop, `drive`, over the `Executor` interface, so it is the same for
both and is tested on a fake executor without Ray installed.

A task whose worker is lost (killed, crashed, its machine gone) raises `TaskLost`; `drive` runs it
again, on whichever worker is free, up to `MAX_ATTEMPTS` times, so a lost worker costs only the
task it was running. Any other exception is the task's own failure and is not retried: running a
bug again gives the same bug.

Ray is optional (`scripts/requirements-ray.txt`) and imported only when asked for. `--ray local`
starts a Ray instance on this machine confined to the loopback interface, with usage statistics
and the dashboard off (`LOOPBACK_ENV`, `local_init_options`): the way to try Ray here, and what
the Ray test runs.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

# A lost worker is worth two more tries on other workers; a task lost three times points at
# something that is not one bad machine.
MAX_ATTEMPTS = 3
# How long `drive` waits for a finished task before it looks at its stop condition again.
POLL_S = 0.5
LOCAL = "local"
# Environment of a loopback-only Ray instance, set before `import ray` (Ray reads it then, and
# its processes inherit it). Ray turns 127.0.0.1 into the machine's routable address unless
# clusters are off (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 on Linux too); with the node address
# 127.0.0.1 its servers bind to 127.0.0.1 instead of every interface.
LOOPBACK_ENV = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
}
# The object store holds only the tasks' results (a game, a slice of records), so a small one does.
LOCAL_OBJECT_STORE_BYTES = 80 << 20
GORINKIT = Path(__file__).resolve().parent


class TaskLost(Exception):
    """The worker running a task went away: the task did not fail by itself, and it may succeed
    on another worker."""


class GaveUp(Exception):
    """A task was lost on `MAX_ATTEMPTS` workers in a row."""


class Executor:
    """Runs tasks `fn(*args)`. `slots`: how many tasks `drive` keeps in flight. `shares_memory`:
    tasks run inside this process (threads), so they may update the caller's objects; otherwise
    (Ray) a task gets a copy of its arguments and everything it reports must be in its result."""

    slots = 1
    shares_memory = False
    description = "executor"

    def submit(self, fn: Callable, *args: Any) -> Any:
        """Start `fn(*args)`; returns a handle."""
        raise NotImplementedError

    def ready(self, handles: list, timeout: float) -> list:
        """The handles among `handles` whose tasks have finished, waiting up to `timeout`
        seconds for the first."""
        raise NotImplementedError

    def result(self, handle: Any) -> Any:
        """A finished task's value; raises `TaskLost` when its worker was lost, or the exception
        the task raised."""
        raise NotImplementedError

    def cancel(self, handles: list) -> None:
        """Give up on tasks not finished yet (an interrupt)."""

    def close(self) -> None:
        """Release the workers; tasks still running are not waited for."""


class ThreadExecutor(Executor):
    """`jobs` threads of this process; a task that starts an engine process runs it there."""

    shares_memory = True

    def __init__(self, jobs: int):
        self.slots = jobs
        self.description = f"{jobs} local worker{'s' if jobs != 1 else ''}"
        self.pool = ThreadPoolExecutor(max_workers=jobs)

    def submit(self, fn: Callable, *args: Any) -> Any:
        return self.pool.submit(fn, *args)

    def ready(self, handles: list, timeout: float) -> list:
        done, _ = wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)
        return [h for h in handles if h in done]

    def result(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self, handles: list) -> None:
        for h in handles:
            h.cancel()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def local_init_options(cpus: int, temp_dir: str | None = None) -> dict:
    """`ray.init` keywords of a Ray instance on this machine that speaks only over loopback
    (together with `LOOPBACK_ENV`)."""
    options = {
        "_node_ip_address": "127.0.0.1",
        "include_dashboard": False,
        "object_store_memory": LOCAL_OBJECT_STORE_BYTES,
        "num_cpus": cpus,
    }
    if temp_dir:
        options["_temp_dir"] = temp_dir
    return options


def import_ray(local: bool):
    """Ray, imported with the loopback environment first when `local`; a clear message when it
    is not installed."""
    if local:
        os.environ.update(LOOPBACK_ENV)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never phone home, cluster or not
    try:
        import ray  # noqa: PLC0415 (optional dependency)
    except ImportError as e:
        raise SystemExit(f"--ray needs the `ray` package ({e}): pip install -r scripts/requirements-ray.txt "
                         f"into the Python that runs this script ({sys.executable})") from None
    return ray


class RayExecutor(Executor):
    """The workers of a Ray cluster (`address`: the head's `host:port`, or `auto`), or of a
    loopback-only instance on this machine (`address` = "local", with `cpus` workers). The
    package `gorinkit` is shipped to the workers (Ray's `py_modules`); the engine binary is not:
    it must be at the same path on every machine."""

    def __init__(self, address: str, cpus: int = 1, temp_dir: str | None = None):
        local = address == LOCAL
        ray = import_ray(local)
        self.ray = ray
        from ray import exceptions as rx  # noqa: PLC0415

        self.lost_errors = (rx.WorkerCrashedError, rx.NodeDiedError, rx.LocalRayletDiedError,
                            rx.ObjectLostError, rx.OutOfMemoryError)
        runtime_env = {"py_modules": [str(GORINKIT)]}
        if local:
            ray.init(**local_init_options(cpus, temp_dir), runtime_env=runtime_env, log_to_driver=True)
        else:
            ray.init(address=address, runtime_env=runtime_env, log_to_driver=True)
        workers = int(ray.cluster_resources().get("CPU", 1))
        # Twice the workers in flight, so a worker that finishes finds its next task queued.
        self.slots = 2 * max(1, workers)
        where = "a loopback Ray instance" if local else f"the Ray cluster at {address}"
        self.description = f"{workers} worker{'s' if workers != 1 else ''} of {where}"
        self.remote: dict[Callable, Any] = {}

    def submit(self, fn: Callable, *args: Any) -> Any:
        if fn not in self.remote:
            # Ray's own retries are off: `drive` retries lost tasks itself, the same way for
            # every executor.
            self.remote[fn] = self.ray.remote(max_retries=0)(fn)
        return self.remote[fn].remote(*args)

    def ready(self, handles: list, timeout: float) -> list:
        done, _ = self.ray.wait(list(handles), num_returns=1, timeout=timeout)
        if done:  # and whatever else has finished meanwhile
            done, _ = self.ray.wait(list(handles), num_returns=len(handles), timeout=0)
        return done

    def result(self, handle: Any) -> Any:
        try:
            return self.ray.get(handle)
        except self.lost_errors as e:
            raise TaskLost(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from None

    def cancel(self, handles: list) -> None:
        for h in handles:
            try:
                self.ray.cancel(h, force=True)
            except Exception:  # already finished or gone: nothing to cancel
                pass

    def close(self) -> None:
        self.ray.shutdown()


def make_executor(ray_address: str | None, jobs: int) -> Executor:
    """Local threads without an address; Ray with one (`local`: `jobs` workers on this machine)."""
    if ray_address:
        return RayExecutor(ray_address, cpus=jobs)
    return ThreadExecutor(jobs)


@dataclass
class Task:
    key: Any  # what the task is, for messages and for `on_result` (a game number, a first game)
    fn: Callable
    args: tuple
    attempt: int = 1


def drive(executor: Executor, tasks: Iterable[Task], on_result: Callable[[Any, Any], None], *,
          on_error: Callable[[Any, BaseException], None] | None = None,
          stop: Callable[[], bool] = lambda: False, say: Callable[[str], None] = print,
          attempts: int = MAX_ATTEMPTS) -> int:
    """Runs `tasks` (read lazily) on `executor`, at most `executor.slots` at once, and calls
    `on_result(key, value)` as each finishes, in the order they finish. A lost task is submitted
    again (`say` tells); after `attempts` losses it fails with `GaveUp`. A failed task's exception
    (its own, or GaveUp) goes to `on_error(key, exc)`, or is raised when there is none. Once `stop()` is true no task
    starts, retries included; those running finish. Returns the number of retries. On any
    exception (an interrupt too) the tasks in flight are cancelled; closing the executor is the
    caller's."""
    pending: dict[Any, Task] = {}
    source = iter(tasks)
    retries: list[Task] = []
    retried = 0
    try:
        while True:
            while len(pending) < executor.slots and not stop():
                if retries:
                    task = retries.pop(0)
                else:
                    task = next(source, None)
                    if task is None:
                        break
                pending[executor.submit(task.fn, *task.args)] = task
            if not pending:  # nothing left to run, or stopped
                return retried
            for handle in executor.ready(list(pending), POLL_S):
                task = pending.pop(handle)
                try:
                    value = executor.result(handle)
                except TaskLost as lost:
                    if task.attempt >= attempts:
                        gave_up = GaveUp(f"task {task.key}: its worker was lost {attempts} times (last: {lost})")
                        if on_error is None:
                            raise gave_up from None
                        on_error(task.key, gave_up)
                        continue
                    say(f"task {task.key}: worker lost ({lost}); running it again "
                        f"(attempt {task.attempt + 1} of {attempts})")
                    retries.append(Task(task.key, task.fn, task.args, task.attempt + 1))
                    retried += 1
                    continue
                except Exception as e:
                    if on_error is None:
                        raise
                    on_error(task.key, e)
                    continue
                on_result(task.key, value)
    except BaseException:
        executor.cancel(list(pending))
        raise
