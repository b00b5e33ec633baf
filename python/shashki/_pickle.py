"""Pickling support: a board is rebuilt from its start and its moves."""


def _rebuild(variant, start_fen, moves):
    from . import Board

    board = Board(variant, start_fen)
    for m in moves:
        board.push(m)
    return board
