"""The float net (torch), in the spirit of Rapfi's mix nets, and its weights as numpy for export.

Per point: h = clip(E_own[own] + E_opp[opp], 0, 1) (D numbers). Policy: a linear D -> 1 per empty
point. Value: the mean of h over all points -> D -> hidden (clipped ReLU) -> 1 logit of the side
to move's expected score. The same steps as reference.py, in floats.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

DIM = 32
HIDDEN = 32


def crelu(x: torch.Tensor) -> torch.Tensor:
    return x.clamp(0.0, 1.0)


class MixNet(nn.Module):
    def __init__(self, shape_count: int, dim: int = DIM, hidden: int = HIDDEN):
        super().__init__()
        self.shape_count = shape_count
        rows = shape_count + 2  # shapes, then own stone, then the other side's stone
        self.emb_own = nn.Embedding(rows, dim)
        self.emb_opp = nn.Embedding(rows, dim)
        # Start inside the clipped ReLU's linear range, so every unit gets gradient.
        nn.init.uniform_(self.emb_own.weight, 0.0, 0.5)
        nn.init.uniform_(self.emb_opp.weight, 0.0, 0.5)
        self.policy = nn.Linear(dim, 1)
        self.value1 = nn.Linear(dim, hidden)
        self.value2 = nn.Linear(hidden, 1)

    def forward(self, own: torch.Tensor, opp: torch.Tensor, empty: torch.Tensor):
        """(value logits [B], policy logits [B, points], -inf on occupied points)."""
        h = crelu(self.emb_own(own) + self.emb_opp(opp))
        policy = self.policy(h).squeeze(-1).masked_fill(~empty, float("-inf"))
        value = self.value2(crelu(self.value1(h.mean(dim=1)))).squeeze(-1)
        return value, policy

    def float_params(self) -> dict[str, np.ndarray]:
        """The weights under gnn.ARRAYS' names, as float64 numpy arrays."""
        def arr(t: torch.Tensor) -> np.ndarray:
            return t.detach().cpu().double().numpy()
        return {
            "emb_own": arr(self.emb_own.weight),
            **({"emb_opp": arr(self.emb_opp.weight)} if hasattr(self, "emb_opp") else {}),
            "policy_w": arr(self.policy.weight).reshape(-1), "policy_b": arr(self.policy.bias),
            "value1_w": arr(self.value1.weight), "value1_b": arr(self.value1.bias),
            "value2_w": arr(self.value2.weight).reshape(-1), "value2_b": arr(self.value2.bias),
        }

    def load_float_params(self, params: dict[str, np.ndarray]) -> None:
        """The inverse of float_params (used to compare the float net with a given weight set)."""
        with torch.no_grad():
            for module, w, b in ((self.policy, "policy_w", "policy_b"), (self.value1, "value1_w", "value1_b"),
                                 (self.value2, "value2_w", "value2_b")):
                module.weight.copy_(torch.as_tensor(params[w]).reshape(module.weight.shape))
                module.bias.copy_(torch.as_tensor(params[b]).reshape(module.bias.shape))
            self.emb_own.weight.copy_(torch.as_tensor(params["emb_own"]))
            if params.get("emb_opp") is not None:
                self.emb_opp.weight.copy_(torch.as_tensor(params["emb_opp"]))


class LineNet(MixNet):
    """A lines net (gnn.FLAG_LINES): h = clip(sum of a point's four rows of one table, 0, 1), the
    rows from records.line_inputs (row 0 the zero row, kept zero); the heads are MixNet's."""

    def __init__(self, line_count: int, dim: int = DIM, hidden: int = HIDDEN):
        super().__init__(line_count, dim, hidden)
        del self.emb_opp
        self.emb_own = nn.Embedding(line_count + 2, dim, padding_idx=0)
        # Four rows sum to a point's input: each starts at a quarter of MixNet's two.
        with torch.no_grad():
            nn.init.uniform_(self.emb_own.weight, 0.0, 0.25)
            self.emb_own.weight[0].zero_()

    def forward(self, rows: torch.Tensor, empty: torch.Tensor):
        h = crelu(self.emb_own(rows).sum(dim=2))
        policy = self.policy(h).squeeze(-1).masked_fill(~empty, float("-inf"))
        value = self.value2(crelu(self.value1(h.mean(dim=1)))).squeeze(-1)
        return value, policy

    def load_float_params(self, params: dict[str, np.ndarray]) -> None:
        super().load_float_params({**params, "emb_opp": None})
