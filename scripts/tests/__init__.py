"""The Python tests of `scripts/`; run from the repository root with

    python3 -m unittest discover -s scripts/tests -t scripts
"""
