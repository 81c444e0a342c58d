"""Multi-head attention on a toy input, and seed 003's width bookkeeping.

Each head has its own slice of W_Q, W_K and W_V, computes its own attention map, and the
heads' outputs are concatenated and mixed by W_O:

    head_h = softmax(Q_h K_h^T / sqrt(d_head)) V_h        Q_h = X W_Q[:, h*d_head:(h+1)*d_head]
    out    = concat(head_1, ..., head_H) W_O

The tests check this against ``torch.nn.MultiheadAttention`` given the same weights.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from model.config import LectureConfig
from model.handmade import EAT_APPLE_TOKENS
from model.train import generator

TOY_WIDTH, TOY_HEADS = 8, 2
BOOKKEEPING_WIDTH, BOOKKEEPING_HEADS = 4096, 32
_MULTIHEAD_STREAM = 20


def multi_head(
    x: torch.Tensor,
    w_q: torch.Tensor,
    w_k: torch.Tensor,
    w_v: torch.Tensor,
    w_o: torch.Tensor,
    heads: int,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(n, d) input -> output (n, d), per-head maps (H, n, n), concatenation (n, d)."""
    n, d = x.shape
    d_head = d // heads

    def split(m: torch.Tensor) -> torch.Tensor:  # (n, d) -> (H, n, d_head)
        return m.view(n, heads, d_head).transpose(0, 1)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)  # (H, n, d_head) each
    maps = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (H, n, n)
    concat = (maps @ v).transpose(0, 1).reshape(n, d)  # (n, H * d_head)
    return concat @ w_o, maps, concat  # (n, d), (H, n, n), (n, d)


def bookkeeping(width: int = BOOKKEEPING_WIDTH, heads: int = BOOKKEEPING_HEADS) -> dict[str, Any]:
    """How a width is shared among heads (seed 003: 4096 / 32 = 128)."""
    d_head = width // heads
    return {
        "width": width,
        "heads": heads,
        "d_head": d_head,
        "slices": [[h * d_head, (h + 1) * d_head - 1] for h in range(heads)],
        "projection_shape": [width, width],
        "projection_params": width * width,
        "per_head_shape": [width, d_head],
        "per_head_params": width * d_head,
    }


def toy(config: LectureConfig) -> dict[str, Any]:
    """Two heads on five seeded token vectors (labelled with seed 003's sentence)."""
    g = generator(config, _MULTIHEAD_STREAM)
    n, d = len(EAT_APPLE_TOKENS), TOY_WIDTH

    def draw(*shape: int, scale: float = 1.0) -> torch.Tensor:
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    x = draw(n, d)  # (n, d)
    w_q, w_k, w_v, w_o = (draw(d, d, scale=1 / math.sqrt(d)) for _ in range(4))  # (d, d)
    out, maps, concat = multi_head(x, w_q, w_k, w_v, w_o, TOY_HEADS)
    return {
        "tokens": list(EAT_APPLE_TOKENS),
        "width": d,
        "heads": TOY_HEADS,
        "d_head": d // TOY_HEADS,
        "x": x.tolist(),
        "w_q": w_q.tolist(),
        "w_k": w_k.tolist(),
        "w_v": w_v.tolist(),
        "w_o": w_o.tolist(),
        "maps": maps.tolist(),
        "concat": concat.tolist(),
        "output": out.tolist(),
    }
