"""Single-head self-attention, written out by hand so every step can be shown.

    Q = X W_Q,  K = X W_K,  V = X W_V
    A = softmax(Q K^T / sqrt(d))        # each row sums to 1
    Z = A V,    y = Z w_out + b         # the readout gives one number per position

The tests check :meth:`SelfAttention.forward` against
``torch.nn.functional.scaled_dot_product_attention``.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    """One attention head and a linear readout.

    Parameters
    ----------
    d_in
        Width of each position's input vector.
    d
        Width of the head: Q, K and V have ``d`` columns.
    d_out
        Width of the readout (1 for the colour task).
    """

    def __init__(self, d_in: int, d: int, d_out: int = 1) -> None:
        super().__init__()
        self.d = d
        self.w_q = nn.Linear(d_in, d, bias=False)
        self.w_k = nn.Linear(d_in, d, bias=False)
        self.w_v = nn.Linear(d_in, d, bias=False)
        self.readout = nn.Linear(d, d_out)

    def scores(self, x: torch.Tensor) -> torch.Tensor:
        """Scores before the softmax: (B, n, d_in) -> Q K^T / sqrt(d), (B, n, n)."""
        q = self.w_q(x)  # (B, n, d)  what each position looks for
        k = self.w_k(x)  # (B, n, d)  what each position is about
        return q @ k.transpose(-2, -1) / math.sqrt(self.d)  # (B, n, n)

    def attend(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The head alone: (B, n, d_in) -> Z (B, n, d) and weights A (B, n, n)."""
        v = self.w_v(x)  # (B, n, d)  what each position hands over
        weights = torch.softmax(self.scores(x), dim=-1)  # (B, n, n), rows sum to 1
        return weights @ v, weights  # (B, n, d), (B, n, n)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, n, d_in) -> predictions (B, n) and attention weights (B, n, n)."""
        z, weights = self.attend(x)
        return self.readout(z).squeeze(-1), weights  # (B, n), (B, n, n)
