"""Measurements behind the three pitfalls of seed 000, and positional encoding.

* Pitfall 1, why project: without W_Q and W_K every word mostly looks at itself.
* Pitfall 2, why divide by sqrt(d): unscaled scores saturate softmax as d grows.
* Pitfall 3, shuffle: attention is permutation equivariant, to the last decimals (on the
  walkthrough sentence, whose words all have different outputs).
* Positional encoding: the sin/cos table, and the shuffle test again with it added.

All numbers are float64 and drawn from generators seeded by the config's seed.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from model.config import LectureConfig
from model.sentences import Walkthrough
from model.streams import Stream
from model.train import generator

PROJECTION_DRAWS, PROJECTION_POSITIONS, PROJECTION_WIDTH = 200, 8, 64
SQRT_D_DRAWS, SQRT_D_POSITIONS = 64, 8
SQRT_D_WALKS = 5  # q.k summed term by term for a few draws: random walks, up to the widest d
# The widest d's draw 0 with its divided scores scaled once more: the same factors the summary's
# knob turns the office arrow's length and the temperature by (1/8, 1/4, 1/2, 1, 2, 4: each
# twice the one before, so the dial's equal steps are equal ratios).
SQRT_D_FACTORS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0)
PE_BASE = 10000.0
WIDE_POSITIONS, WIDE_WIDTH = 32, 64  # the classic table as the lecture shows it, seed 000


def _self_share(weights: torch.Tensor) -> float:
    """Mean share of attention a position gives itself: (n, n) -> scalar."""
    return torch.diagonal(weights).mean().item()


def projection_probe(config: LectureConfig) -> dict[str, Any]:
    """Self-attention share without projections vs with random W_Q, W_K, over many draws;
    for the first draw also the map with one matrix for both roles (W_Q = W_K)."""
    g = generator(config, Stream.PROJECTION)
    n, d = PROJECTION_POSITIONS, PROJECTION_WIDTH
    plain_shares, projected_shares, first = [], [], {}
    self_dots, cross_dots = [], []
    off_diagonal = ~torch.eye(n, dtype=torch.bool)  # (n, n)
    for draw in range(PROJECTION_DRAWS):
        x = torch.randn(n, d, generator=g, dtype=torch.float64)  # (n, d) word vectors
        dots = x @ x.T  # (n, n): |x_i|^2 on the diagonal, x_i . x_j off it
        self_dots.append(dots.diagonal())  # (n,)
        cross_dots.append(dots[off_diagonal])  # (n * (n - 1),)
        w_q = torch.randn(d, d, generator=g, dtype=torch.float64) / math.sqrt(d)  # (d, d)
        w_k = torch.randn(d, d, generator=g, dtype=torch.float64) / math.sqrt(d)  # (d, d)
        plain = torch.softmax(x @ x.T / math.sqrt(d), dim=-1)  # (n, n)
        projected_dots = (x @ w_q) @ (x @ w_k).T  # (n, n): x_i W_Q . x_j W_K
        projected = torch.softmax(projected_dots / math.sqrt(d), dim=-1)  # (n, n)
        plain_shares.append(_self_share(plain))
        projected_shares.append(_self_share(projected))
        if draw == 0:
            # One matrix for both roles: the score of x with itself is |x W|^2 >= 0.
            shared_dots = (x @ w_q) @ (x @ w_q).T  # (n, n): |x_i W|^2 on the diagonal
            shared = torch.softmax(shared_dots / math.sqrt(d), dim=-1)  # (n, n)
            first = {
                "x": x.tolist(),  # (n, d): the draw's word vectors, the rows of X
                "dots": dots.tolist(),  # (n, n): X X^T, before the scaling and the softmax
                "plain": plain.tolist(),
                "shared_dots": shared_dots.tolist(),  # (n, n): (XW)(XW)^T, before softmax
                "shared": shared.tolist(),
                "projected_dots": projected_dots.tolist(),  # (n, n): before softmax
                "projected": projected.tolist(),
            }
    return {
        "draws": PROJECTION_DRAWS,
        "positions": n,
        "width": d,
        "uniform_share": 1 / n,
        "self_dot_mean": torch.cat(self_dots).mean().item(),  # about d
        "cross_dot_std": torch.cat(cross_dots).std().item(),  # about sqrt(d)
        "plain": _summary(plain_shares),
        "projected": _summary(projected_shares),
        "example": first,
    }


def _summary(values: list[float]) -> dict[str, Any]:
    return {
        "values": values,
        "min": min(values),
        "max": max(values),
        "mean": sum(values) / len(values),
    }


def _slope(top: torch.Tensor) -> float:
    """The mean of w (1 - w) over the draws' largest weights ``top`` (draws,): softmax's
    derivative of a weight with respect to its own score, d w / d s = w (1 - w)."""
    return (top * (1 - top)).mean().item()


def sqrt_d_probe(config: LectureConfig) -> dict[str, Any]:
    """Largest weight in a row of scores q.k, unscaled vs divided by sqrt(d), for growing d."""
    g = generator(config, Stream.SQRT_D)
    n = SQRT_D_POSITIONS
    rows = []
    for d in config.sqrt_d_dims:
        q = torch.randn(SQRT_D_DRAWS, 1, d, generator=g, dtype=torch.float64)  # (draws, 1, d)
        k = torch.randn(SQRT_D_DRAWS, n, d, generator=g, dtype=torch.float64)  # (draws, n, d)
        scores = (q @ k.transpose(-2, -1)).squeeze(1)  # (draws, n)
        unscaled = torch.softmax(scores, dim=-1)  # (draws, n)
        scaled = torch.softmax(scores / math.sqrt(d), dim=-1)  # (draws, n)
        rows.append(
            {
                "d": d,
                "mean_max_unscaled": unscaled.max(-1).values.mean().item(),
                "mean_max_scaled": scaled.max(-1).values.mean().item(),
                # The largest weight's slope to its own score, w(1 - w): how much it learns.
                "mean_slope_unscaled": _slope(unscaled.max(-1).values),
                "mean_slope_scaled": _slope(scaled.max(-1).values),
                # The spread of q.k over every draw and key: grows like sqrt(d).
                "spread_unscaled": scores.std().item(),
                "sqrt_d": math.sqrt(d),
                "spread_scaled": (scores / math.sqrt(d)).std().item(),
                "example_scores": scores[0].tolist(),
                "example_unscaled": unscaled[0].tolist(),
                "example_scaled": scaled[0].tolist(),
            }
        )
    widest = max(config.sqrt_d_dims)
    last = rows[-1]  # the widest d (the widths increase)
    divided = torch.tensor(last["example_scores"], dtype=torch.float64) / math.sqrt(widest)
    rescaled = [
        {
            "factor": f,
            "divisor": math.sqrt(widest) / f,
            "weights": torch.softmax(divided * f, dim=-1).tolist(),
        }
        for f in SQRT_D_FACTORS
    ]
    w = generator(config, Stream.SQRT_D_WALKS)
    q = torch.randn(SQRT_D_WALKS, widest, generator=w, dtype=torch.float64)  # (walks, d)
    k = torch.randn(SQRT_D_WALKS, widest, generator=w, dtype=torch.float64)  # (walks, d)
    walks = torch.cumsum(q * k, dim=-1)  # (walks, d): walk[t] = q_1 k_1 + ... + q_t k_t
    return {
        "draws": SQRT_D_DRAWS,
        "positions": n,
        "dims": rows,
        "rescaled": rescaled,
        "walks": walks.tolist(),
    }


def sinusoidal_table(positions: int, width: int) -> torch.Tensor:
    """Classic positional encoding: PE[p, 2i] = sin(p / base^(2i/w)), PE[p, 2i+1] = cos(...)."""
    p = torch.arange(positions, dtype=torch.float64).unsqueeze(1)  # (n, 1)
    i = torch.arange(0, width, 2, dtype=torch.float64)  # (w/2,)
    angles = p / PE_BASE ** (i / width)  # (n, w/2)
    table = torch.zeros(positions, width, dtype=torch.float64)  # (n, w)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles[:, : width // 2])
    return table


def _sentence_attention(x: torch.Tensor, sentence: Walkthrough) -> torch.Tensor:
    """softmax(Q K^T / sqrt(d)) V of a whole sentence, no mask: (n, d) -> (n, d)."""
    w_q, w_k, w_v = (
        torch.tensor(w, dtype=torch.float64) for w in (sentence.w_q, sentence.w_k, sentence.w_v)
    )  # (d, d) each
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # (n, d) each
    weights = torch.softmax(q @ k.T / math.sqrt(q.shape[1]), dim=-1)  # (n, n)
    return weights @ v  # (n, d)


def _shuffle_run(
    sentence: Walkthrough, x: torch.Tensor, perm: torch.Tensor, positions: torch.Tensor | None
) -> dict[str, Any]:
    """out(shuffled input) vs shuffled(out(input)), optionally with positions added (then
    the rows fed in, each word's vector plus its place's row of the table, are kept too)."""
    pe = torch.zeros_like(x) if positions is None else positions  # (n, d)
    inputs, inputs_of_shuffled = x + pe, x[perm] + pe  # (n, d) each: what the head is fed
    out = _sentence_attention(inputs, sentence)  # (n, d)
    out_of_shuffled = _sentence_attention(inputs_of_shuffled, sentence)  # (n, d)
    shuffled_out = out[perm]  # (n, d)
    fed = (
        {}
        if positions is None
        else {"inputs": inputs.tolist(), "inputs_of_shuffled": inputs_of_shuffled.tolist()}
    )
    return {
        **fed,
        "out": out.tolist(),
        "out_of_shuffled": out_of_shuffled.tolist(),
        "shuffled_out": shuffled_out.tolist(),
        "max_abs_diff": (out_of_shuffled - shuffled_out).abs().max().item(),
    }


def shuffle_probe(config: LectureConfig, sentence: Walkthrough) -> dict[str, Any]:
    """Pitfall 3 and its fix, on a walkthrough sentence with its own W_Q, W_K and W_V
    (every word's output differs, so the eye can follow each one as it moves), in float64."""
    x = torch.tensor(sentence.x, dtype=torch.float64)  # (n, d)
    n = x.shape[0]
    perm = torch.randperm(n, generator=generator(config, Stream.SHUFFLE))  # (n,)
    if torch.equal(perm, torch.arange(n)):  # a shuffle that moves nothing shows nothing
        perm = torch.roll(perm, 1)
    table = torch.tensor(positional_table(sentence)["table"], dtype=torch.float64)  # (n, d)
    return {
        "tokens": list(sentence.tokens),
        "permutation": perm.tolist(),
        "without_positions": _shuffle_run(sentence, x, perm, None),
        "with_positions": _shuffle_run(sentence, x, perm, table),
    }


def positional_table(sentence: Walkthrough) -> dict[str, Any]:
    """The sin/cos table the shuffle probe adds: one row per word of a walkthrough sentence,
    as wide as its vectors (it is added to them); and the same formula on 32 positions of 64
    dimensions (``wide``), where its fast and slow columns can be seen."""
    positions, width = len(sentence.x), len(sentence.x[0])
    return {
        "positions": positions,
        "width": width,
        "base": PE_BASE,
        "table": sinusoidal_table(positions, width).tolist(),
        "wide_positions": WIDE_POSITIONS,
        "wide_width": WIDE_WIDTH,
        "wide": sinusoidal_table(WIDE_POSITIONS, WIDE_WIDTH).tolist(),
    }
