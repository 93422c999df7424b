"""Quiet middle-game positions on 15x15 for timing tests (stop_latency.py, faults.py): no brain
should answer them in a few hundred ms, so a command sent during the search finds it thinking."""

from __future__ import annotations

from .protocol import board_lines, parse_move
from .referee import Board

SIZE = 15

# Quiet middle-game positions, moves in order (black first), 5 black + 5 white: the brain is
# black to move. No four, no open three for either side, so no brain should answer in 300 ms.
POSITIONS = [
    [(7, 7), (8, 6), (8, 8), (6, 6), (6, 8), (7, 8), (9, 7), (10, 6), (9, 9), (10, 10)],
    [(7, 7), (7, 8), (8, 7), (6, 7), (8, 8), (9, 6), (6, 9), (8, 9), (9, 8), (10, 8)],
    [(7, 7), (6, 6), (7, 6), (7, 5), (8, 5), (9, 4), (6, 8), (5, 9), (8, 8), (9, 9)],
]


def quiet_board(stones: list[tuple[int, int]]) -> list[str]:
    """BOARD with the stones in move order; equal counts, so the brain is black and black's stones
    (even indices) are its own."""
    return board_lines(stones, own=0)


def referee_board(stones: list[tuple[int, int]]) -> Board:
    """The referee's board of the stones (black first)."""
    board = Board(SIZE)
    for i, (x, y) in enumerate(stones):
        board.place(x, y, i % 2)
    return board


def legal_move(board: Board, line: str) -> tuple[int, int] | None:
    """The move a reply names when it is on an empty point of the board, else None."""
    mv = parse_move(line)
    if mv is None or not board.inside(*mv) or board.get(*mv):
        return None
    return mv
