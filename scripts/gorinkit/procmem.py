"""A process's memory, read from /proc (Linux): what peak_rss.py and soak.py sample."""

from __future__ import annotations


def read_kib(path: str, keys: tuple[str, ...]) -> int | None:
    """Sum of the `key: N kB` lines named in keys, in bytes; None if the file is gone."""
    total = 0
    try:
        with open(path) as f:
            for line in f:
                name, _, rest = line.partition(":")
                if name in keys:
                    total += int(rest.split()[0]) * 1024
    except (FileNotFoundError, ProcessLookupError, PermissionError, ValueError):
        return None
    return total


def uss_bytes(pid: int) -> int | None:
    keys = ("Private_Clean", "Private_Dirty", "Private_Hugetlb")
    v = read_kib(f"/proc/{pid}/smaps_rollup", keys)
    return v if v is not None else read_kib(f"/proc/{pid}/smaps", keys)


def hwm_bytes(pid: int) -> int | None:
    return read_kib(f"/proc/{pid}/status", ("VmHWM",))
