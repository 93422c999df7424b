"""gen_data.py and match.py on a real Ray instance on this machine, confined to loopback
(`--ray local`, gorinkit/dispatch.py), against the same runs in local processes.

Needs the `ray` package (scripts/requirements-ray.txt); protocol-tests/ray.rs runs these with the
Python in GORIN_RAY_PYTHON. While the jobs run, a thread reads the sockets of this process and all
its descendants (Ray's GCS, raylet and workers, the engines) from /proc, as `ss -tunp` shows
them, and every test fails if one of them listened on, or talked to, an address that is not
loopback.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import ipaddress
import json
import os
import subprocess
import tempfile
import threading
import unittest
from pathlib import Path

from gorinkit import dispatch, gendata, grn1
from gorinkit import matchplay as match

GORIN = Path(os.environ.get("GORIN_BIN", Path(__file__).resolve().parents[2] / "target" / "release" / "pbrain-gorin"))
SIZE = 9
NODES = 500
WORKERS = 2
SAMPLE_S = 0.2
PROC_NET = ("tcp", "tcp6", "udp", "udp6")
TCP_LISTEN = "0A"


def descendants(root: int) -> set[int]:
    """`root` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                # The name in parentheses may hold spaces: the parent id follows the last ')'.
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += children.get(pid, [])
    return found


def socket_inodes(pids: set[int]) -> dict[str, int]:
    """Socket inode -> the process holding it."""
    inodes = {}
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes[target[8:-1]] = pid
    return inodes


def address(hex_addr: str) -> tuple[ipaddress._BaseAddress, int]:
    """An address of /proc/net/tcp{,6}: hex, in the kernel's byte order (32-bit words, little
    endian here)."""
    host, port = hex_addr.split(":")
    raw = bytes.fromhex(host)
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    ip = ipaddress.ip_address(words)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip, int(port, 16)


def sockets(pids: set[int]) -> list[tuple[str, str, tuple, tuple, int]]:
    """(protocol, state, local, remote, pid) of every TCP and UDP socket the processes hold."""
    owners = socket_inodes(pids)
    found = []
    for proto in PROC_NET:
        try:
            lines = Path(f"/proc/net/{proto}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[9] in owners:
                found.append((proto, cols[3], address(cols[1]), address(cols[2]), owners[cols[9]]))
    return found


def off_loopback(proto: str, state: str, local: tuple, remote: tuple) -> bool:
    """A socket bound to, or connected to, anything but loopback (an unconnected UDP socket or a
    listening TCP one has the unspecified remote 0.0.0.0:0, which is fine)."""
    if not local[0].is_loopback:
        return True
    unconnected = remote[0].is_unspecified and remote[1] == 0
    return not unconnected and not remote[0].is_loopback


class Watch(threading.Thread):
    """Samples the sockets of this process tree until stopped."""

    def __init__(self):
        super().__init__(daemon=True)
        self.halt = threading.Event()
        self.seen = 0  # socket observations, so the check cannot pass on nothing
        self.listening = set()
        self.bad: list[str] = []

    def run(self):
        while not self.halt.is_set():
            for proto, state, local, remote, pid in sockets(descendants(os.getpid())):
                self.seen += 1
                if proto.startswith("tcp") and state == TCP_LISTEN:
                    self.listening.add((str(local[0]), local[1]))
                if off_loopback(proto, state, local, remote) and len(self.bad) < 20:
                    self.bad.append(f"{proto} pid {pid} {local[0]}:{local[1]} -> {remote[0]}:{remote[1]}")
            self.halt.wait(SAMPLE_S)


def ss_lines() -> str:
    """`ss -tunp`'s lines for this process tree (printed by the tests for the record)."""
    pids = descendants(os.getpid())
    try:
        text = subprocess.run(["ss", "-tunap"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"(ss unavailable: {e})"
    keep = [line for line in text.splitlines()[1:] if any(f"pid={p}," in line for p in pids)]
    return "\n".join(keep)


class RayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not GORIN.exists():
            raise unittest.SkipTest("needs the release build (cargo build --release)")
        if importlib.util.find_spec("ray") is None:
            raise unittest.SkipTest("needs the `ray` package (scripts/requirements-ray.txt)")
        cls.tmp = tempfile.TemporaryDirectory(prefix="gorin-ray-")  # short: Ray's socket paths
        cls.watch = Watch()
        cls.watch.start()
        # The local executor sets LOOPBACK_ENV before importing ray.
        with contextlib.redirect_stdout(io.StringIO()):
            cls.ray = dispatch.RayExecutor(dispatch.LOCAL, cpus=WORKERS, temp_dir=cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.ray.close()
        cls.watch.halt.set()
        cls.watch.join()
        cls.tmp.cleanup()

    def assert_loopback_only(self):
        self.assertGreater(self.watch.seen, 0, "no socket of Ray's was seen: the check saw nothing")
        self.assertTrue(self.watch.listening, "Ray listens somewhere; the check found none")
        self.assertEqual(self.watch.bad, [], "traffic beyond loopback")
        print(f"\nss -tunap during the job (this process tree):\n{ss_lines()}", flush=True)

    def test_gen_data_on_ray_writes_the_local_runs_file(self):
        folder = Path(self.tmp.name)
        argv = ["--engine", str(GORIN), "--games", "4", "--size", str(SIZE), "--nodes", str(NODES), "--seed", "3"]
        on_ray = gendata.parse_args(["--out", str(folder / "ray.grn1"), *argv])
        (assembler, retried) = gendata.generate(on_ray, self.ray)
        self.assert_loopback_only()
        here = gendata.parse_args(["--out", str(folder / "here.grn1"), "-j", str(WORKERS), *argv])
        local = dispatch.ThreadExecutor(WORKERS)
        try:
            gendata.generate(here, local)
        finally:
            local.close()
        ray_bytes, local_bytes = (folder / "ray.grn1").read_bytes(), (folder / "here.grn1").read_bytes()
        for data in (ray_bytes, local_bytes):
            shape_count, body = grn1.split_header(data)
            self.assertEqual(data[:4], b"GRN1")
            self.assertGreater(shape_count, 0)
            sizes = grn1.record_sizes(body)
            self.assertEqual(set(sizes), {(SIZE, SIZE)})
            self.assertEqual(len(body), len(sizes) * grn1.record_size(SIZE, SIZE))
        self.assertEqual(assembler.records, len(grn1.record_sizes(grn1.split_header(ray_bytes)[1])))
        self.assertEqual(retried, 0)
        self.assertEqual(ray_bytes, local_bytes, "Ray and local processes write the same file")

    def test_match_on_ray_records_the_local_matchs_games(self):
        folder = Path(self.tmp.name)
        argv = ["--engine", str(GORIN), "--engine", str(GORIN), "--games", "2", "--size", str(SIZE),
                "--turn-ms", "5000", "--info", f"max_node={NODES}", "--seed", "8"]
        files = {}
        for name, executor in (("ray", self.ray), ("here", None)):
            files[name] = folder / f"{name}.jsonl"
            a = match.parse_args([*argv, "--jsonl", str(files[name])])
            with contextlib.redirect_stdout(io.StringIO()):
                # run() closes its executor: lend it one that leaves the shared instance up.
                m, _, interrupted = match.run(a, executor=executor and Borrowed(executor))
            if executor is not None:
                self.assert_loopback_only()
            self.assertFalse(interrupted)
            self.assertEqual(m.script_errors, 0)
            self.assertEqual(sum(len(st.move_ms) for st in m.stats), sum(
                len(json.loads(line)["moves"]) for line in files[name].read_text().splitlines()))

        def games(path):
            return [{k: g[k] for k in ("game", "black", "opening", "moves", "result", "reason")}
                    for g in sorted((json.loads(line) for line in path.read_text().splitlines()),
                                    key=lambda g: g["game"])]

        self.assertEqual(len(games(files["ray"])), 2)
        self.assertEqual(games(files["ray"]), games(files["here"]))


class Borrowed(dispatch.Executor):
    """Another executor, without its close."""

    def __init__(self, inner: dispatch.Executor):
        self.inner = inner
        self.slots, self.shares_memory, self.description = inner.slots, inner.shares_memory, inner.description

    def submit(self, fn, *args):
        return self.inner.submit(fn, *args)

    def ready(self, handles, timeout):
        return self.inner.ready(handles, timeout)

    def result(self, handle):
        return self.inner.result(handle)

    def cancel(self, handles):
        self.inner.cancel(handles)


if __name__ == "__main__":
    unittest.main()
