"""Tests of the trainer: `python3 -m unittest discover -s scripts/train/tests -t scripts`."""
