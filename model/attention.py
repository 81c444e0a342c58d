"""Self-attention, written out by hand so every step can be shown.

    Q = X W_Q,  K = X W_K,  V = X W_V
    A = softmax(Q K^T / sqrt(d) + M)    # each row sums to 1; M is -inf above the diagonal
    Z = A V,    y = Z w_out + b         # when causal, 0 elsewhere; the readout gives outputs

:class:`MultiHeadAttention` runs H such heads side by side, each with its own slices of
W_Q, W_K and W_V, and mixes their concatenated outputs with W_O before the readout. The
tests check both against ``torch.nn.functional.scaled_dot_product_attention``.
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
    causal
        Mask every key after its query (a position sees only itself and what came before).
    """

    def __init__(self, d_in: int, d: int, d_out: int = 1, causal: bool = False) -> None:
        super().__init__()
        self.d = d
        self.causal = causal
        self.w_q = nn.Linear(d_in, d, bias=False)
        self.w_k = nn.Linear(d_in, d, bias=False)
        self.w_v = nn.Linear(d_in, d, bias=False)
        self.readout = nn.Linear(d, d_out)

    def scores(self, x: torch.Tensor) -> torch.Tensor:
        """Scores before the softmax: (B, n, d_in) -> Q K^T / sqrt(d), (B, n, n);
        with the causal mask, -inf wherever a key comes after its query."""
        q = self.w_q(x)  # (B, n, d)  what each position looks for
        k = self.w_k(x)  # (B, n, d)  what each position is about
        return masked(q @ k.transpose(-2, -1) / math.sqrt(self.d), self.causal)  # (B, n, n)

    def attend(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The head alone: (B, n, d_in) -> Z (B, n, d) and weights A (B, n, n)."""
        v = self.w_v(x)  # (B, n, d)  what each position hands over
        weights = torch.softmax(self.scores(x), dim=-1)  # (B, n, n), rows sum to 1
        return weights @ v, weights  # (B, n, d), (B, n, n)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, n, d_in) -> predictions (B, n) and attention weights (B, n, n)."""
        z, weights = self.attend(x)
        return self.readout(z).squeeze(-1), weights  # (B, n), (B, n, n)


def masked(scores: torch.Tensor, causal: bool) -> torch.Tensor:
    """(..., n, n) scores with -inf above the diagonal when ``causal``: exp(-inf) = 0."""
    if not causal:
        return scores
    n = scores.shape[-1]
    later = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)  # (n, n): key after query
    return scores.masked_fill(later, float("-inf"))


class MultiHeadAttention(nn.Module):
    """H heads side by side, their outputs concatenated and mixed by W_O, then a readout.

    Parameters
    ----------
    d_in
        Width of each position's input vector.
    heads
        Number of heads H.
    d_head
        Width of one head: W_Q, W_K and W_V are d_in x (H d_head), a slice per head.
    d_out
        Width of the readout.
    """

    def __init__(self, d_in: int, heads: int, d_head: int, d_out: int) -> None:
        super().__init__()
        self.heads, self.d_head = heads, d_head
        width = heads * d_head
        self.w_q = nn.Linear(d_in, width, bias=False)
        self.w_k = nn.Linear(d_in, width, bias=False)
        self.w_v = nn.Linear(d_in, width, bias=False)
        self.w_o = nn.Linear(width, width, bias=False)  # mixes the heads' outputs
        self.readout = nn.Linear(width, d_out)

    def _split(self, m: torch.Tensor) -> torch.Tensor:
        b, n, _ = m.shape  # (B, n, H d_head) -> (B, H, n, d_head)
        return m.view(b, n, self.heads, self.d_head).transpose(1, 2)

    def attend(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, n, d_in) -> each head's output (B, H, n, d_head) and map (B, H, n, n)."""
        q, k, v = (self._split(w(x)) for w in (self.w_q, self.w_k, self.w_v))  # (B, H, n, dh)
        maps = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_head), dim=-1)
        return maps @ v, maps  # (B, H, n, d_head), (B, H, n, n)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, n, d_in) -> outputs (B, n, d_out) and the heads' maps (B, H, n, n)."""
        heads, maps = self.attend(x)
        b, _, n, _ = heads.shape
        concat = heads.transpose(1, 2).reshape(b, n, self.heads * self.d_head)  # (B, n, H dh)
        return self.readout(self.w_o(concat)), maps
