"""GRN1 training records (written by `pbrain-gorin gen-data`): read, write, and turn into net inputs.

The format (version 1, little-endian) is documented in README.md. Files may mix board sizes, so
the reader returns one `Group` per (width, height), each a numpy structured array in file order
plus the game each record belongs to (a game is a run of consecutive records whose ply increases,
with the side records after it; a new file starts a new game).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

# The format's constants are gorinkit.grn1's (one place for every script that reads GRN1).
from gorinkit.grn1 import (  # re-exported: callers read records.FLAG_MATE and so on
    BLACK, EMPTY, FILE_HEADER, FLAG_EXPLORATION, FLAG_MATE, FLAG_SIDE, FLAG_TEACHER, WHITE, FormatError, file_header,
    record_size, record_sizes, split_header)

VALUE_LIMIT = 20000


class RecordError(ValueError):
    """A GRN1 file that cannot be read: the message names the file and the byte offset."""


def record_dtype(width: int, height: int) -> np.dtype:
    """The layout of one record on a width x height board (12 + 5 * width * height bytes)."""
    n = width * height
    return np.dtype([
        ("rule", "u1"), ("width", "u1"), ("height", "u1"), ("to_move", "u1"),
        ("ply", "<u2"), ("move", "<u2"), ("value", "<i2"), ("result", "i1"), ("flags", "u1"),
        ("cells", "u1", (n,)), ("features", "<u2", (n, 2)),
    ])


@dataclass
class Group:
    """The records of one board size, in file order; `game` numbers the games across all files."""

    width: int
    height: int
    records: np.ndarray  # structured, record_dtype(width, height)
    game: np.ndarray  # int64, one per record
    static: np.ndarray | None = None  # int16, the engine's classic evaluation per record (read_static)
    lines: np.ndarray | None = None  # uint16 [records, points, 4], the line classes (read_lines)

    def __len__(self) -> int:
        return len(self.records)


@dataclass
class Dataset:
    shape_count: int
    groups: dict[tuple[int, int], Group]
    games: int
    line_count: int = 0  # line classes of the GLF1 files read beside the records (0: none read)

    def __len__(self) -> int:
        return sum(len(g) for g in self.groups.values())


def _scan(path: Path, data: bytes) -> tuple[int, list[tuple[int, int, int]]]:
    """The file's shape_count and (offset, width, height) of every record, checked for size."""
    try:
        shape_count, body = split_header(data)
        sizes = record_sizes(body, FILE_HEADER)
    except FormatError as e:
        raise RecordError(f"{path}: {e}") from None
    if shape_count == 0:
        raise RecordError(f"{path}: shape_count 0 at offset 6")
    spans = []
    offset = FILE_HEADER
    for width, height in sizes:
        spans.append((offset, width, height))
        offset += record_size(width, height)
    return shape_count, spans


def _check(path: Path, recs: np.ndarray, offsets: np.ndarray, shape_count: int) -> None:
    """Field ranges; the first bad record is named by its offset."""
    n = recs["cells"].shape[1]
    bad = {
        "to_move not 1 or 2": (recs["to_move"] != BLACK) & (recs["to_move"] != WHITE),
        "result not -1, 0 or +1": np.abs(recs["result"].astype(np.int16)) > 1,
        "move off the board": recs["move"] >= n,
        f"value beyond +-{VALUE_LIMIT}": np.abs(recs["value"].astype(np.int32)) > VALUE_LIMIT,
        "a cell not 0, 1 or 2": (recs["cells"] > WHITE).any(axis=1),
        f"a shape index >= shape_count {shape_count}": (recs["features"] >= shape_count).any(axis=(1, 2)),
    }
    for what, mask in bad.items():
        if mask.any():
            i = int(np.argmax(mask))
            raise RecordError(f"{path}: record at offset {int(offsets[i])}: {what}")


STATIC_MAGIC = b"GSE1"


def static_path(path: str | Path) -> Path:
    """Where `pbrain-gorin static-eval` output for a GRN1 file is looked for: the same name, .gse1."""
    return Path(path).with_suffix(".gse1")


def read_static(path: str | Path, count: int) -> np.ndarray:
    """The classic evaluations of a GRN1 file's `count` records (`pbrain-gorin static-eval`):
    `GSE1`, u32 count, then an i16 per record."""
    path = Path(path)
    data = path.read_bytes()
    if len(data) < 8 or data[:4] != STATIC_MAGIC:
        raise RecordError(f"{path}: not a GSE1 file")
    n = int(np.frombuffer(data, "<u4", 1, 4)[0])
    if n != count or len(data) != 8 + 2 * n:
        raise RecordError(f"{path}: {n} values in {len(data)} bytes for {count} records")
    return np.frombuffer(data, "<i2", n, 8).copy()


LINE_MAGIC = b"GLF1"
LINE_HEADER = 12
LINE_REACH = 4


def line_path(path: str | Path) -> Path:
    """Where `pbrain-gorin line-features` output for a GRN1 file is looked for: the same name, .glf1."""
    return Path(path).with_suffix(".glf1")


def read_lines(path: str | Path, spans: list[tuple[int, int, int]]) -> tuple[int, bytes, np.ndarray]:
    """A GLF1 file for the records `spans` of a GRN1 file: its class count, its bytes and where
    each record's classes start. The layout (src/datagen.rs, `line_features`): `GLF1`, u16
    version 1, u16 reach 4, u32 class count, then per record and point four u16 classes."""
    path = Path(path)
    data = path.read_bytes()
    if len(data) < LINE_HEADER or data[:4] != LINE_MAGIC:
        raise RecordError(f"{path}: not a GLF1 file")
    version, reach = (int(x) for x in np.frombuffer(data, "<u2", 2, 4))
    count = int(np.frombuffer(data, "<u4", 1, 8)[0])
    if version != 1 or reach != LINE_REACH or count < 2:
        raise RecordError(f"{path}: version {version}, reach {reach}, {count} classes "
                          f"(this reader knows version 1, reach {LINE_REACH})")
    sizes = np.array([8 * w * h for _, w, h in spans], np.int64)
    starts = LINE_HEADER + np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    if len(data) != LINE_HEADER + int(sizes.sum()):
        raise RecordError(f"{path}: {len(data)} bytes for {len(spans)} records "
                          f"(they need {LINE_HEADER + int(sizes.sum())})")
    return count, data, starts


def write_lines(path: str | Path, count: int, chunks: list[np.ndarray]) -> None:
    """A GLF1 file (read_lines) of `count` classes: the header, then every record's classes in
    order, each chunk [records, points, 4]. The engine writes the real ones (`line-features`)."""
    header = LINE_MAGIC + np.array([1, LINE_REACH], "<u2").tobytes() + np.array([count], "<u4").tobytes()
    Path(path).write_bytes(header + b"".join(np.ascontiguousarray(c, "<u2").tobytes() for c in chunks))


def read(paths: list[str | Path], with_static: bool = False, with_lines: bool = False) -> Dataset:
    """All records of `paths`, grouped by board size; every file must have the same shape_count.
    `with_static`: also each file's classic evaluations (`static_path`), into `Group.static`;
    `with_lines`: each file's line classes (`line_path`), into `Group.lines`."""
    shape_count = None
    line_count = 0
    parts: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]] = {}
    games = 0
    for path in map(Path, paths):
        data = path.read_bytes()
        count, spans = _scan(path, data)
        if shape_count is None:
            shape_count = count
        elif count != shape_count:
            raise RecordError(f"{path}: shape_count {count} at offset 6, but earlier files have {shape_count}")
        if not spans:
            continue
        offsets = np.array([s[0] for s in spans], np.int64)
        sizes = np.array([s[1] * 256 + s[2] for s in spans])
        plies = np.array([int.from_bytes(data[o + 4:o + 6], "little") for o in offsets])
        side = np.array([data[o + 11] & FLAG_SIDE != 0 for o in offsets], bool)
        # A new game where the ply does not increase or the board size changes; side records
        # (gen-data writes them after their game's own) belong to the game before them, so a
        # held-out game takes its side positions with it.
        new_game = np.ones(len(spans), bool)
        new_game[1:] = ((plies[1:] <= plies[:-1]) | (sizes[1:] != sizes[:-1])) & ~side[1:]
        new_game[1:] |= side[:-1] & ~side[1:]
        game = games + np.cumsum(new_game) - 1
        games = int(game[-1]) + 1
        buf = np.frombuffer(data, np.uint8)
        static = read_static(static_path(path), len(spans)) if with_static else None
        if with_lines:
            lpath = line_path(path)
            classes, ldata, lstarts = read_lines(lpath, spans)
            if line_count and classes != line_count:
                raise RecordError(f"{lpath}: {classes} classes, but earlier files have {line_count}")
            line_count = classes
            lbuf = np.frombuffer(ldata, np.uint8)
        for key in np.unique(sizes):
            width, height = int(key) // 256, int(key) % 256
            pick = sizes == key
            dtype = record_dtype(width, height)
            rows = buf[offsets[pick, None] + np.arange(dtype.itemsize)]
            recs = rows.view(dtype).reshape(-1)
            _check(path, recs, offsets[pick], count)
            lines = None
            if with_lines:
                n = width * height
                lines = lbuf[lstarts[pick, None] + np.arange(8 * n)].view("<u2").reshape(-1, n, 4)
                if (lines >= line_count).any():
                    raise RecordError(f"{lpath}: a line class >= {line_count}")
            parts.setdefault((width, height), []).append(
                (recs, game[pick], None if static is None else static[pick], lines))
    if shape_count is None:
        raise RecordError("no GRN1 files given")
    groups = {
        (w, h): Group(w, h, np.concatenate([p[0] for p in ps]), np.concatenate([p[1] for p in ps]),
                      np.concatenate([p[2] for p in ps]) if with_static else None,
                      np.concatenate([p[3] for p in ps]) if with_lines else None)
        for (w, h), ps in sorted(parts.items())
    }
    return Dataset(shape_count, groups, games, line_count)


def write(path: str | Path, shape_count: int, chunks: list[np.ndarray]) -> None:
    """Write a GRN1 file: the header, then the records of each structured array in order."""
    with open(path, "wb") as out:
        out.write(file_header(shape_count))
        for chunk in chunks:
            out.write(np.ascontiguousarray(chunk).tobytes())


def inputs(recs: np.ndarray, shape_count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Net inputs from the side to move's view: (own, opp, empty), each [records, points].

    own/opp index the net's two embedding tables: an empty point's shape for the side to move and
    for the other side; an occupied point looks up row shape_count (a stone of the side to move)
    or shape_count + 1 (the other side's stone) in both tables.
    """
    stm = recs["to_move"].astype(np.int64)[:, None]
    feats = recs["features"].astype(np.int64)
    black_moves = stm == BLACK
    own = np.where(black_moves, feats[..., 0], feats[..., 1])
    opp = np.where(black_moves, feats[..., 1], feats[..., 0])
    cells = recs["cells"].astype(np.int64)
    stone = np.where(cells == stm, shape_count, shape_count + 1)
    empty = cells == EMPTY
    own = np.where(empty, own, stone)
    opp = np.where(empty, opp, stone)
    return own, opp, empty


def line_inputs(recs: np.ndarray, lines: np.ndarray, line_count: int) -> tuple[np.ndarray, np.ndarray]:
    """A lines net's inputs from the side to move's view: (rows [records, points, 4], empty).

    An empty point's rows are its four line classes (GLF1 holds them from the side to move's
    view); an occupied point's are row line_count (a stone of the side to move) or line_count + 1
    (the other side's), then three times row 0, the table's zero row.
    """
    stm = recs["to_move"][:, None]
    cells = recs["cells"]
    empty = cells == EMPTY
    rows = np.where(empty[..., None], lines, 0).astype(np.uint16)
    rows[..., 0] = np.where(empty, rows[..., 0], np.where(cells == stm, line_count, line_count + 1))
    return rows, empty
