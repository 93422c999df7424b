"""Gorin's trainer: GRN1 training records in, a value + policy net out, exported as GNN1 weights.

numpy-only modules: records (GRN1 files), gnn (the GNN1 weight format and its quantisation),
reference (the integer forward pass the engine matches bit for bit), fixture. torch modules:
model (the float net), train (the command line). See README.md.
"""
