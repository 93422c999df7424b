"""The GRN1 framing every script reads training records by (gorinkit/grn1.py)."""

from __future__ import annotations

import unittest

from gorinkit import grn1


def record(side: int, ply: int) -> bytes:
    head = bytes([0, side, side, 1]) + ply.to_bytes(2, "little")
    return head + bytes(grn1.record_size(side, side) - len(head))


class Grn1Test(unittest.TestCase):
    def test_a_file_splits_into_its_header_and_records(self):
        recs = [record(9, 4), record(15, 5), record(5, 6)]
        data = grn1.file_header(1365) + b"".join(recs)
        self.assertEqual(data[:8], b"GRN1\x01\x00\x55\x05")
        shape_count, body = grn1.split_header(data)
        self.assertEqual(shape_count, 1365)
        self.assertEqual(grn1.split_records(body), recs)
        self.assertEqual(grn1.split_records(b""), [])

    def test_torn_and_foreign_bytes_are_format_errors(self):
        body = record(9, 4) + record(15, 5)
        for bad in (body[:-1], body + b"\x00" * 5, record(4, 0), b"\x00" + bytes([33, 33]) + bytes(9)):
            with self.assertRaises(grn1.FormatError):
                grn1.split_records(bad)
        for bad in (b"GRN", b"GRN2" + bytes(4), b"GRN1\x02\x00\x55\x05"):
            with self.assertRaises(grn1.FormatError):
                grn1.split_header(bad)


if __name__ == "__main__":
    unittest.main()
