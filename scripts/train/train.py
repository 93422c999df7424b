"""Train the value + policy net on GRN1 records and export it as GNN1 weights.

From scripts/: python3 -m train.train --data games.grn1 --epochs 10 --out net.gnn1
(from the repository root: PYTHONPATH=scripts python3 -m train.train ...). Uses CUDA when present.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F

from . import gnn, records, reference
from .model import DIM, HIDDEN, LineNet, MixNet


@dataclass
class Part:
    """One board size's records as net inputs, kept as numpy until a batch is taken."""

    inputs: tuple  # the net's index arrays: (own, opp), or (rows,) for a lines net
    empty: np.ndarray
    move: np.ndarray
    target: np.ndarray  # value target in [0, 1]
    use_policy: np.ndarray  # bool: not an exploration move
    base: np.ndarray  # float32 logit the net's value is added to: the classic evaluation, or 0


@dataclass
class Stats:
    value: float = 0.0
    policy: float = 0.0
    correct: int = 0
    positions: int = 0
    policy_positions: int = 0
    history: list = field(default_factory=list)

    def add(self, value_sum: float, policy_sum: float, correct: int, n: int, np_: int) -> None:
        self.value += value_sum
        self.policy += policy_sum
        self.correct += correct
        self.positions += n
        self.policy_positions += np_

    def means(self) -> tuple[float, float, float]:
        p = max(self.policy_positions, 1)
        return self.value / max(self.positions, 1), self.policy / p, self.correct / p


def value_target(recs: np.ndarray, value_scale: float, value_mix: float) -> np.ndarray:
    """(1 - mix) * result (1 win, 0.5 draw, 0 loss) + mix * sigmoid(value / scale); exploration
    moves carry no search value, so theirs is the result alone, unless a teacher labelled them;
    side positions were never played out, so theirs is the value alone."""
    result = (recs["result"].astype(np.float32) + 1) / 2
    search = 1 / (1 + np.exp(-recs["value"].astype(np.float32) / value_scale))
    no_value = ((recs["flags"] & records.FLAG_EXPLORATION) != 0) & ((recs["flags"] & records.FLAG_TEACHER) == 0)
    no_result = (recs["flags"] & records.FLAG_SIDE) != 0
    mix = np.where(no_value, 0.0, np.where(no_result, 1.0, value_mix)).astype(np.float32)
    return (1 - mix) * result + mix * search


def split(data: records.Dataset, held_out: float, seed: int) -> tuple[dict, dict]:
    """Per board size, the indices of training and held-out records; whole games go one way."""
    rng = np.random.default_rng(seed)
    held_games = rng.permutation(data.games)[:int(round(held_out * data.games))]
    train, held = {}, {}
    for key, group in data.groups.items():
        is_held = np.isin(group.game, held_games)
        train[key], held[key] = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    return train, held


def parts(data: records.Dataset, value_scale: float, value_mix: float,
          residual: bool = False) -> dict[tuple[int, int], Part]:
    out = {}
    for key, group in data.groups.items():
        recs = group.records
        if group.lines is not None:
            rows, empty = records.line_inputs(recs, group.lines, data.line_count)
            inputs = (rows.astype(np.int32),)
        else:
            own, opp, empty = records.inputs(recs, data.shape_count)
            inputs = (own.astype(np.int32), opp.astype(np.int32))
        if residual and group.static is None:
            raise ValueError("--residual needs the classic evaluations (pbrain-gorin static-eval)")
        base = (group.static.astype(np.float32) / value_scale if residual
                else np.zeros(len(recs), np.float32))
        out[key] = Part(inputs, empty, recs["move"].astype(np.int64),
                        value_target(recs, value_scale, value_mix),
                        (recs["flags"] & records.FLAG_EXPLORATION) == 0, base)
    return out


def batches(index: dict, batch: int, rng: np.random.Generator | None) -> list[tuple[tuple[int, int], np.ndarray]]:
    """(board size, record indices) batches; shuffled when rng is given."""
    out = []
    for key, idx in index.items():
        idx = rng.permutation(idx) if rng is not None else idx
        out += [(key, idx[i:i + batch]) for i in range(0, len(idx), batch)]
    if rng is not None:
        out = [out[i] for i in rng.permutation(len(out))]
    return out


def losses(model: MixNet, part: Part, idx: np.ndarray, device: torch.device):
    """(value loss sum, policy loss sum, correct top-1, policy positions) over one batch."""
    t = lambda a: torch.as_tensor(a[idx]).to(device)  # noqa: E731
    value, policy = model(*(t(a).long() for a in part.inputs), t(part.empty))
    value = value + t(part.base)
    value_loss = F.binary_cross_entropy_with_logits(value, t(part.target), reduction="sum")
    use = t(part.use_policy)
    if use.any():
        logits, move = policy[use], t(part.move)[use]
        policy_loss = F.cross_entropy(logits, move, reduction="sum")
        correct = int((logits.argmax(dim=1) == move).sum())
    else:
        policy_loss, correct = value_loss.new_zeros(()), 0
    return value_loss, policy_loss, correct, int(use.sum())


def evaluate(model: MixNet, data: dict, index: dict, batch: int, device: torch.device) -> Stats:
    stats = Stats()
    model.eval()
    with torch.no_grad():
        for key, idx in batches(index, batch, None):
            v, p, c, n = losses(model, data[key], idx, device)
            stats.add(float(v), float(p), c, len(idx), n)
    model.train()
    return stats


def train(data: records.Dataset, *, epochs: int = 10, batch: int = 256, lr: float = 3e-3,
          held_out: float = 0.1, seed: int = 1, value_scale: float = 600.0, value_mix: float = 0.5,
          policy_weight: float = 0.1, skip_proved: bool = False, skip_side: bool = False, residual: bool = False,
          dim: int = DIM, hidden: int = HIDDEN, lr_end: float | None = None, log=print) -> tuple[MixNet, list]:
    """Fit a MixNet; returns it and one (epoch, train means, held-out means) row per epoch.

    With `lr_end` the step size falls from `lr` to `lr_end` along a half cosine over all steps
    (a constant `lr` otherwise)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    lines = data.line_count > 0
    model = (LineNet(data.line_count, dim, hidden) if lines else MixNet(data.shape_count, dim, hidden)).to(device)
    if residual:
        # A correction starts at none: the classic evaluation alone.
        with torch.no_grad():
            model.value2.weight.zero_()
            model.value2.bias.zero_()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    train_idx, held_idx = split(data, held_out, seed)
    # Positions the search proved won or lost are the threat solvers' business, and in
    # self-play at small node counts they are the larger share: left in, the value head
    # learns who has a forced win instead of how quiet positions compare.
    skip = (records.FLAG_MATE if skip_proved else 0) | (records.FLAG_SIDE if skip_side else 0)
    if skip:
        for index in (train_idx, held_idx):
            for key, idx in index.items():
                index[key] = idx[(data.groups[key].records["flags"][idx] & skip) == 0]
    prepared = parts(data, value_scale, value_mix, residual)
    n_train = sum(map(len, train_idx.values()))
    n_held = sum(map(len, held_idx.values()))
    log(f"{len(data)} positions in {data.games} games, sizes {sorted(data.groups)}; "
        f"train {n_train}, held-out {n_held}; device {device}")
    # Keep embeddings representable at scale 2**Q_ACT: as i16, or a lines net's within its bound.
    limit = (gnn.LINE_ENTRY_MAX if lines else 2.0**15) / 2**gnn.Q_ACT * 0.999
    history = []
    steps = epochs * len(batches(train_idx, batch, None))
    step = 0
    for epoch in range(1, epochs + 1):
        start = time.monotonic()
        stats = Stats()
        for key, idx in batches(train_idx, batch, rng):
            if lr_end is not None:
                for group in opt.param_groups:
                    group["lr"] = cosine(lr, lr_end, step, steps)
            step += 1
            v, p, c, n = losses(model, prepared[key], idx, device)
            loss = (v + policy_weight * p) / len(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                model.emb_own.weight.clamp_(-limit, limit)
                if not lines:
                    model.emb_opp.weight.clamp_(-limit, limit)
            stats.add(float(v.detach()), float(p.detach()), c, len(idx), n)
        held = evaluate(model, prepared, held_idx, batch, device) if n_held else None
        row = (epoch, stats.means(), held.means() if held else None)
        history.append(row)
        tv, tp, ta = row[1]
        line = f"epoch {epoch}: train value {tv:.4f} policy {tp:.4f} top1 {ta:.3f}"
        if held:
            hv, hp, ha = row[2]
            line += f"  held-out value {hv:.4f} policy {hp:.4f} top1 {ha:.3f}"
        log(f"{line}  ({time.monotonic() - start:.1f} s)")
    return model.cpu(), history


def cosine(start: float, end: float, step: int, steps: int) -> float:
    """The step size of step `step` of `steps` (from 0): `start` at the first, `end` at the last."""
    if steps <= 1:
        return end
    return end + (start - end) * 0.5 * (1 + math.cos(math.pi * step / (steps - 1)))


def compare(model: MixNet, net: gnn.QuantNet, data: records.Dataset, limit: int = 512) -> tuple[float, float]:
    """Largest |float - quantised| of the value and of the policy logits (empty points), in logit
    units, over the first `limit` records of each board size."""
    worst_v = worst_p = 0.0
    scale = 2.0**net.q_act
    model.eval()
    for group in data.groups.values():
        if net.flags & gnn.FLAG_LINES:
            rows, empty = records.line_inputs(group.records[:limit], group.lines[:limit], data.line_count)
            qv, qp = reference.forward_lines(net, rows, empty)
            inputs = (torch.as_tensor(rows.astype(np.int64)),)
        else:
            own, opp, empty = records.inputs(group.records[:limit], data.shape_count)
            qv, qp = reference.forward(net, own, opp, empty)
            inputs = (torch.as_tensor(own), torch.as_tensor(opp))
        with torch.no_grad():
            fv, fp = model(*inputs, torch.as_tensor(empty))
        worst_v = max(worst_v, float(np.abs(qv / scale - fv.double().numpy()).max()))
        diff = np.abs(qp / scale - fp.double().numpy())[empty]
        worst_p = max(worst_p, float(diff.max()) if diff.size else 0.0)
    model.train()
    return worst_v, worst_p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m train.train", description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True, help="GRN1 files (pbrain-gorin gen-data)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--held-out", type=float, default=0.1, help="share of games held out (default 0.1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr-end", type=float, default=None,
                    help="step size at the last step, reached along a half cosine (default: --lr throughout)")
    ap.add_argument("--value-scale", type=float, default=600.0,
                    help="engine score of sigmoid 0.73 (search values become sigmoid(value/scale))")
    ap.add_argument("--value-mix", type=float, default=0.5, help="weight of the search value against the result")
    ap.add_argument("--policy-weight", type=float, default=0.1,
                    help="weight of the policy loss against the value loss (the two share the tables; "
                         "at 1 the policy's larger gradients keep the value head from learning)")
    ap.add_argument("--skip-proved", action="store_true",
                    help="leave out positions whose search value is a proved win or loss")
    ap.add_argument("--skip-side", action="store_true",
                    help="leave out the off-game positions of gen-data --side")
    ap.add_argument("--residual", action="store_true",
                    help="learn a correction to the engine's classic evaluation, read from each data "
                         "file's .gse1 beside it (pbrain-gorin static-eval DATA.grn1 DATA.gse1)")
    ap.add_argument("--lines", action="store_true",
                    help="a lines net: read each data file's line classes from its .glf1 beside it "
                         "(pbrain-gorin line-features DATA.grn1 DATA.glf1)")
    ap.add_argument("--dim", type=int, default=DIM)
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--out", required=True, help="GNN1 weight file to write")
    args = ap.parse_args(argv)
    if not 0 <= args.held_out < 1:
        ap.error("--held-out must be in [0, 1)")
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        data = records.read(args.data, with_static=args.residual, with_lines=args.lines)
    except (records.RecordError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not len(data):
        print("error: no records", file=sys.stderr)
        return 1
    model, _ = train(data, epochs=args.epochs, batch=args.batch, lr=args.lr, held_out=args.held_out,
                     seed=args.seed, value_scale=args.value_scale, value_mix=args.value_mix,
                     policy_weight=args.policy_weight, skip_proved=args.skip_proved, skip_side=args.skip_side,
                     residual=args.residual, dim=args.dim, hidden=args.hidden, lr_end=args.lr_end)
    flags = (gnn.FLAG_RESIDUAL if args.residual else 0) | (gnn.FLAG_LINES if args.lines else 0)
    net, clipped = gnn.quantize(model.float_params(), flags=flags)
    gnn.write(args.out, net)
    dv, dp = compare(model, net, data)
    print(f"wrote {args.out}: GNN1 D={net.dim} hidden={net.hidden} "
          f"{'line classes' if args.lines else 'shape_count'}={net.shape_count}, "
          f"{clipped} weights clipped; quantised vs float: value logit within {dv:.4f}, "
          f"policy logits within {dp:.4f}")
    return 0 if math.isfinite(dv) else 1


if __name__ == "__main__":
    sys.exit(main())
