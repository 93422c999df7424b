"""GNN1, the quantised weight file: quantise float weights, write and read the file.

The layout and the meaning of every number are documented in README.md ("GNN1"); this module and
reference.py are its executable form. numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"GNN1"
VERSION = 1
MAX_Q = 20  # largest q_act / q_weight either reader accepts (src/eval/gnn.rs: MAX_Q)
HEADER = np.dtype([
    ("magic", "S4"), ("version", "<u2"), ("dim", "<u2"), ("shape_count", "<u4"),
    ("hidden", "<u2"), ("outputs", "<u2"), ("q_act", "u1"), ("q_weight", "u1"),
    ("flags", "<u2"), ("payload", "<u4"),
])
assert HEADER.itemsize == 24
# Fixed power-of-two scales: an activation or embedding of 1.0 is 2**Q_ACT, a weight of 1.0 is
# 2**Q_WEIGHT, a bias of 1.0 is 2**(Q_ACT + Q_WEIGHT).
# Header flags: bit 0, the value is a correction added to the engine's classic evaluation
# (trained with --residual on `pbrain-gorin static-eval` output); no other bit may be set.
FLAG_RESIDUAL = 1
# Bit 1: a lines net. Its points read four line classes (records.line_inputs) through one table,
# emb_own, with shape_count the number of classes; there is no emb_opp. Its entries lie within
# +-LINE_ENTRY_MAX (four sum exactly in the engine's i16 lanes) and its row 0 is zero.
FLAG_LINES = 2
FLAGS_KNOWN = FLAG_RESIDUAL | FLAG_LINES
LINE_ENTRY_MAX = 8191
Q_ACT = 10
Q_WEIGHT = 10
I16 = (-32768, 32767)
I32_MAX = 2**31 - 1
# The arrays after the header, in file order: (name, little-endian type, shape from (S, D, H)).
ARRAYS = (
    ("emb_own", "<i2", lambda s, d, h: (s + 2, d)),
    ("emb_opp", "<i2", lambda s, d, h: (s + 2, d)),
    ("policy_w", "<i2", lambda s, d, h: (d,)),
    ("policy_b", "<i4", lambda s, d, h: (1,)),
    ("value1_w", "<i2", lambda s, d, h: (h, d)),
    ("value1_b", "<i4", lambda s, d, h: (h,)),
    ("value2_w", "<i2", lambda s, d, h: (h,)),
    ("value2_b", "<i4", lambda s, d, h: (1,)),
)


def arrays_of(flags: int) -> tuple:
    """ARRAYS as a net with these flags has them."""
    return tuple(a for a in ARRAYS if not (flags & FLAG_LINES and a[0] == "emb_opp"))


class GnnError(ValueError):
    """A GNN1 file or weight set that cannot be used."""


@dataclass
class QuantNet:
    shape_count: int
    dim: int
    hidden: int
    q_act: int
    q_weight: int
    arrays: dict[str, np.ndarray]  # ARRAYS' names -> int16 / int32 arrays
    flags: int = 0

    def __getattr__(self, name: str) -> np.ndarray:
        try:
            return self.__dict__["arrays"][name]
        except KeyError:
            raise AttributeError(name) from None


def quantize(params: dict[str, np.ndarray], q_act: int = Q_ACT, q_weight: int = Q_WEIGHT,
             flags: int = 0) -> tuple[QuantNet, int]:
    """Round float weights to GNN1 integers (round half to even, then clip to the type).

    Returns the net and how many numbers were clipped. Fails when an i32 accumulator could
    overflow (the reference and the engine sum in i32): activations are at most 2**q_act.
    """
    layout = arrays_of(flags)
    shapes = {name: np.shape(params[name]) for name, _, _ in layout}
    rows, dim = shapes["emb_own"]
    hidden = shapes["value1_w"][0]
    scale = {"emb_own": q_act, "emb_opp": q_act, "policy_b": q_act + q_weight,
             "value1_b": q_act + q_weight, "value2_b": q_act + q_weight}
    arrays, clipped = {}, 0
    for name, kind, shape in layout:
        want = shape(rows - 2, dim, hidden)
        x = np.asarray(params[name], np.float64).reshape(want)
        q = np.round(x * 2.0 ** scale.get(name, q_weight))
        info = np.iinfo(np.dtype(kind))
        low, high = info.min, info.max
        if flags & FLAG_LINES and name == "emb_own":
            low, high = -LINE_ENTRY_MAX, LINE_ENTRY_MAX
            q[0] = 0  # the zero row: three of a stone's four rows
        clipped += int(((q < low) | (q > high)).sum())
        arrays[name] = np.clip(q, low, high).astype(np.dtype(kind).newbyteorder("="))
    net = QuantNet(rows - 2, dim, hidden, q_act, q_weight, arrays, flags)
    check_bounds(net)
    return net, clipped


def check_bounds(net: QuantNet) -> None:
    """Every dot product + bias fits i32 for activations in [0, 2**q_act]."""
    top = 1 << net.q_act
    for w, b, what in ((net.policy_w[None, :], net.policy_b, "policy"),
                       (net.value1_w, net.value1_b, "value layer 1"),
                       (net.value2_w[None, :], net.value2_b, "value layer 2")):
        worst = np.abs(w.astype(np.int64)).sum(axis=1) * top + np.abs(b.astype(np.int64))
        if worst.max() > I32_MAX:
            raise GnnError(f"{what}: an i32 accumulator could overflow ({int(worst.max())})")


def write(path: str | Path, net: QuantNet) -> None:
    payload = b"".join(np.ascontiguousarray(net.arrays[name], kind).tobytes()
                       for name, kind, _ in arrays_of(net.flags))
    header = np.array([(MAGIC, VERSION, net.dim, net.shape_count, net.hidden, 1, net.q_act,
                        net.q_weight, net.flags, len(payload))], HEADER)
    Path(path).write_bytes(header.tobytes() + payload)


def read(path: str | Path) -> QuantNet:
    data = Path(path).read_bytes()
    if len(data) < HEADER.itemsize:
        raise GnnError(f"{path}: truncated header ({len(data)} of {HEADER.itemsize} bytes)")
    h = np.frombuffer(data, HEADER, 1)[0]
    if h["magic"] != MAGIC:
        raise GnnError(f"{path}: bad magic {bytes(h['magic'])!r} (expected {MAGIC!r})")
    if h["version"] != VERSION:
        raise GnnError(f"{path}: version {h['version']} (this reader knows {VERSION})")
    if h["outputs"] != 1 or int(h["flags"]) & ~FLAGS_KNOWN:
        raise GnnError(f"{path}: outputs {h['outputs']} / flags {h['flags']} (expected 1 / {FLAGS_KNOWN} at most)")
    if not (0 <= h["q_act"] <= MAX_Q and 1 <= h["q_weight"] <= MAX_Q):
        # The engine's reader (src/eval/gnn.rs) refuses these too: beyond them a point sum could
        # leave i32 on a 32x32 board, and q_weight 0 has no rounding half.
        raise GnnError(f"{path}: q_act {h['q_act']} / q_weight {h['q_weight']} (allowed 0..{MAX_Q} / 1..{MAX_Q})")
    s, d, hid = int(h["shape_count"]), int(h["dim"]), int(h["hidden"])
    arrays, offset = {}, HEADER.itemsize
    for name, kind, shape in arrays_of(int(h["flags"])):
        want = shape(s, d, hid)
        count = int(np.prod(want))
        end = offset + count * np.dtype(kind).itemsize
        if end > len(data):
            raise GnnError(f"{path}: truncated at {name} (offset {offset}, file is {len(data)} bytes)")
        arrays[name] = np.frombuffer(data, kind, count, offset).astype(np.dtype(kind).newbyteorder("=")).reshape(want)
        offset = end
    if offset != len(data) or h["payload"] != offset - HEADER.itemsize:
        raise GnnError(f"{path}: {len(data)} bytes, header says {HEADER.itemsize + int(h['payload'])}, "
                       f"the arrays need {offset}")
    net = QuantNet(s, d, hid, int(h["q_act"]), int(h["q_weight"]), arrays, int(h["flags"]))
    check_bounds(net)
    if net.flags & FLAG_LINES:
        if np.abs(net.emb_own.astype(np.int32)).max() > LINE_ENTRY_MAX or net.emb_own[0].any():
            raise GnnError(f"{path}: a lines table entry beyond +-{LINE_ENTRY_MAX} or a row 0 not zero")
    return net
