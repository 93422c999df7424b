"""The integer forward pass over GNN1 weights: the spec the engine implements bit for bit.

Every step is integer arithmetic that fits i32 (gnn.check_bounds guarantees the dot products);
numpy computes in int64 only so that nothing here could wrap silently. README.md states the same
steps in words.
"""

from __future__ import annotations

import numpy as np

from .gnn import QuantNet


def shift_round(x: np.ndarray, shift: int) -> np.ndarray:
    """x / 2**shift rounded half up: (x + 2**(shift-1)) >> shift, an arithmetic (floor) shift."""
    return (x + (1 << (shift - 1))) >> shift


def forward(net: QuantNet, own: np.ndarray, opp: np.ndarray, empty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value [B], policy [B, points]) as integers at scale 2**q_act, from records.inputs(...).

    value: the logit of the side to move's expected score (sigmoid(value / 2**q_act) = P(win) +
    P(draw) / 2). policy: a logit per point; occupied points get 0 and are not moves.
    """
    top = 1 << net.q_act
    own, opp = np.asarray(own, np.int64), np.asarray(opp, np.int64)
    # 1. Per point: the two table rows summed, clipped to [0, 2**q_act] (clipped ReLU).
    h = np.clip(net.emb_own[own].astype(np.int64) + net.emb_opp[opp], 0, top)  # [B, N, D]
    return heads(net, h, empty)


def forward_lines(net: QuantNet, rows: np.ndarray, empty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """forward for a lines net (gnn.FLAG_LINES), from records.line_inputs(...): step 1 sums a
    point's four rows of the one table instead of two rows of two."""
    top = 1 << net.q_act
    h = np.clip(net.emb_own[np.asarray(rows, np.int64)].astype(np.int64).sum(axis=2), 0, top)  # [B, N, D]
    return heads(net, h, empty)


def heads(net: QuantNet, h: np.ndarray, empty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Steps 2 and 3 from the points' activations h [B, N, D]."""
    top = 1 << net.q_act
    # 2. Policy: a dot product per point plus the bias, shifted back to scale 2**q_act.
    policy = shift_round(h @ net.policy_w.astype(np.int64) + int(net.policy_b[0]), net.q_weight)
    policy = np.where(empty, policy, 0)
    # 3. Value: the mean over all points, rounded half up ((sum + N/2) / N, N = points, integer
    #    division of a non-negative number), then D -> hidden (clipped ReLU) -> 1.
    n = h.shape[1]
    mean = (h.sum(axis=1) + n // 2) // n  # [B, D]
    z1 = mean @ net.value1_w.astype(np.int64).T + net.value1_b.astype(np.int64)
    a1 = np.clip(shift_round(z1, net.q_weight), 0, top)
    value = shift_round(a1 @ net.value2_w.astype(np.int64) + int(net.value2_b[0]), net.q_weight)
    return value, policy
