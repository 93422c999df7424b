"""Make fixture/: a tiny GNN1 net, a few GRN1 positions and the reference outputs on them, for
the engine's bit-exact check; and the same for a tiny lines net (gnn.FLAG_LINES) over random line
classes of the same positions (positions.glf1). From scripts/: python3 -m train.fixture [--check]. numpy only.

The net's float weights are drawn at random (wide enough that the clipped ReLUs clip on both
sides and negative sums get rounded), so the fixture needs neither torch nor training.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from . import gnn, records, reference, synth

HERE = Path(__file__).resolve().parent / "fixture"
SHAPES, DIM, HIDDEN = 40, 8, 8
BOARDS = ((9, 9, 3), (15, 15, 2), (7, 5, 2))  # width, height, positions
LINE_CLASSES = 60


def net() -> gnn.QuantNet:
    rng = np.random.default_rng(33)
    rows = SHAPES + 2
    params = {
        "emb_own": rng.normal(0.3, 0.6, (rows, DIM)), "emb_opp": rng.normal(0.1, 0.6, (rows, DIM)),
        "policy_w": rng.normal(0, 2, DIM), "policy_b": rng.normal(0, 1, 1),
        "value1_w": rng.normal(0, 1.5, (HIDDEN, DIM)), "value1_b": rng.normal(0, 0.5, HIDDEN),
        "value2_w": rng.normal(0, 2, HIDDEN), "value2_b": rng.normal(0, 0.5, 1),
    }
    return gnn.quantize(params)[0]


def lines_net() -> gnn.QuantNet:
    rng = np.random.default_rng(35)
    params = {
        "emb_own": rng.normal(0.1, 0.4, (LINE_CLASSES + 2, DIM)),
        "policy_w": rng.normal(0, 2, DIM), "policy_b": rng.normal(0, 1, 1),
        "value1_w": rng.normal(0, 1.5, (HIDDEN, DIM)), "value1_b": rng.normal(0, 0.5, HIDDEN),
        "value2_w": rng.normal(0, 2, HIDDEN), "value2_b": rng.normal(0, 0.5, 1),
    }
    return gnn.quantize(params, flags=gnn.FLAG_LINES)[0]


def line_classes(chunks: list[np.ndarray]) -> list[np.ndarray]:
    """Random classes 1.. of every empty point, 0 on stones, per chunk [records, points, 4]."""
    rng = np.random.default_rng(36)
    out = []
    for recs in chunks:
        classes = rng.integers(1, LINE_CLASSES, size=recs["cells"].shape + (4,)).astype(np.uint16)
        classes[recs["cells"] != records.EMPTY] = 0
        out.append(classes)
    return out


def positions() -> list[np.ndarray]:
    rng = np.random.default_rng(34)
    return [synth.positions(rng, k, w, h, SHAPES, exploration=0.0) for w, h, k in BOARDS]


def outputs(q: gnn.QuantNet, chunks: list[np.ndarray], lines: list[np.ndarray] | None = None) -> list[dict]:
    out = []
    for k, recs in enumerate(chunks):
        if lines is not None:
            rows, empty = records.line_inputs(recs, lines[k], q.shape_count)
            value, policy = reference.forward_lines(q, rows, empty)
        else:
            own, opp, empty = records.inputs(recs, q.shape_count)
            value, policy = reference.forward(q, own, opp, empty)
        for i in range(len(recs)):
            out.append({"width": int(recs["width"][i]), "height": int(recs["height"][i]),
                        "value": int(value[i]),
                        "policy": [int(p) if e else None for p, e in zip(policy[i], empty[i])]})
    return out


def make(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    q, chunks = net(), positions()
    gnn.write(folder / "net.gnn1", q)
    records.write(folder / "positions.grn1", SHAPES, chunks)
    doc = {"net": "net.gnn1", "positions": "positions.grn1", "outputs": outputs(q, chunks)}
    (folder / "expected.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    ql, classes = lines_net(), line_classes(chunks)
    gnn.write(folder / "lines.gnn1", ql)
    records.write_lines(folder / "positions.glf1", LINE_CLASSES, classes)
    doc = {"net": "lines.gnn1", "positions": "positions.grn1", "lines": "positions.glf1",
           "outputs": outputs(ql, chunks, classes)}
    (folder / "expected_lines.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")


def check(folder: Path) -> list[str]:
    """Differences between the stored expected outputs and the reference run on the stored files."""
    doc = json.loads((folder / "expected.json").read_text())
    q = gnn.read(folder / doc["net"])
    data = records.read([folder / doc["positions"]])
    # Records come back grouped by size in sorted order; put them back in file order.
    chunks = [data.groups[(w, h)].records for w, h, _ in BOARDS]
    got = outputs(q, chunks)
    diffs = [f"position {i}: expected {e}, got {g}" for i, (e, g) in enumerate(zip(doc["outputs"], got)) if e != g]
    doc = json.loads((folder / "expected_lines.json").read_text())
    ql = gnn.read(folder / doc["net"])
    data = records.read([folder / doc["positions"]], with_lines=True)
    if data.line_count != ql.shape_count:
        diffs.append(f"{doc['lines']}: {data.line_count} classes, the net has {ql.shape_count}")
    got = outputs(ql, chunks, [data.groups[(w, h)].lines for w, h, _ in BOARDS])
    diffs += [f"lines position {i}: expected {e}, got {g}"
              for i, (e, g) in enumerate(zip(doc["outputs"], got)) if e != g]
    return diffs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m train.fixture", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only compare the stored fixture with the reference")
    ap.add_argument("--dir", type=Path, default=HERE)
    args = ap.parse_args(argv)
    if not args.check:
        make(args.dir)
    diffs = check(args.dir)
    print("\n".join(diffs) or f"{args.dir}: reference outputs match")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
