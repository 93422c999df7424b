"""The GRN1 training-record format (`pbrain-gorin gen-data`, `src/datagen.rs`; README.md
documents every field): its constants, and the framing every script reads it by. One place for
them, so gen_data.py's assembler, relabel.py, games_to_records.py and the trainer agree.
Python 3 standard library only.

A file is an 8-byte header (magic, u16 version, u16 shape count) and records back to back, each
12 bytes of fields (rule, width, height, side to move, u16 ply, u16 move, i16 value, i8 result,
u8 flags), then a byte per cell and two u16 features per cell.
"""

from __future__ import annotations

import struct

MAGIC = b"GRN1"
VERSION = 1
FILE_HEADER = 8
RECORD_HEADER = 12
MIN_SIDE, MAX_SIDE = 5, 32
EMPTY, BLACK, WHITE = 0, 1, 2
# Byte offsets of a record's fields that scripts rewrite.
VALUE_AT = 8
RESULT_AT = 10
FLAGS_AT = 11
# Flag bits. EXPLORATION: the move was a random one, or (games_to_records.py) there is no search
# value; the value means nothing unless a teacher gave it.
FLAG_EXPLORATION = 1
# The value is a proved win or loss.
FLAG_MATE = 2
# Set by relabel.py: the value is a teacher's, valid even on an exploration move.
FLAG_TEACHER = 4
# An off-game position (gen-data --side): never played out, so its result means nothing and its
# value is the search's alone.
FLAG_SIDE = 8


class FormatError(ValueError):
    """Bytes that are not GRN1 version 1 records."""


def record_size(width: int, height: int) -> int:
    return RECORD_HEADER + 5 * width * height


def file_header(shape_count: int) -> bytes:
    return MAGIC + struct.pack("<HH", VERSION, shape_count)


def split_header(data: bytes) -> tuple[int, bytes]:
    """(shape count, the records' bytes) of a GRN1 file."""
    if len(data) < FILE_HEADER:
        raise FormatError(f"not a GRN1 file: truncated header at offset 0 ({len(data)} of {FILE_HEADER} bytes)")
    if data[:4] != MAGIC:
        raise FormatError(f"not a GRN1 file: bad magic {data[:4]!r} at offset 0 (expected {MAGIC!r})")
    version = int.from_bytes(data[4:6], "little")
    if version != VERSION:
        raise FormatError(f"version {version} at offset 4 (this reader knows {VERSION})")
    return int.from_bytes(data[6:8], "little"), data[FILE_HEADER:]


def record_sizes(body: bytes, offset: int = 0) -> list[tuple[int, int]]:
    """(width, height) of each record of `body` (records back to back); raises FormatError when
    a record is cut short or its board size is out of range, naming the offset where it starts
    (`offset`: where `body` starts in its file). Reads the framing only."""
    sizes = []
    at = 0
    while at < len(body):
        left = len(body) - at
        if left < RECORD_HEADER:
            raise FormatError(f"truncated record at offset {offset + at} ({left} bytes left, "
                              f"a record header is {RECORD_HEADER})")
        width, height = body[at + 1], body[at + 2]
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise FormatError(f"board {width}x{height} at offset {offset + at} (sides are {MIN_SIDE}..{MAX_SIDE})")
        size = record_size(width, height)
        if left < size:
            raise FormatError(f"truncated record at offset {offset + at} ({left} bytes left, "
                              f"a {width}x{height} record is {size})")
        sizes.append((width, height))
        at += size
    return sizes


def split_records(body: bytes, offset: int = 0) -> list[bytes]:
    """Each record's bytes, in order (FormatError as `record_sizes`)."""
    out, at = [], 0
    for width, height in record_sizes(body, offset):
        size = record_size(width, height)
        out.append(body[at:at + size])
        at += size
    return out
