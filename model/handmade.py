"""Hand-made examples: vectors chosen by hand for clarity, every derived number computed.

* ``eat_apple`` (seed 003): "我 吃 蘋果 很 開心", d = 4. The last word of "我 吃 蘋果"
  scores every key, then the causal-masked map of the longer sentence.
* ``it_cat`` (seed 002): "The cat was scared so it hid", d = 4, at several temperatures T,
  with and without the division by sqrt(d).
* ``office`` (seed 000): five colleagues, each standing at a 2-D Key and holding a Value
  (days); a Query arrow at several angles and lengths.

The hand-picked vectors are inputs, like a lecture's sentence; scores, weights and outputs
are always computed here from them.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from model.config import DEFAULT_OFFICE, Colleague

# The eat_apple sentence. Each word's input vector X has four dimensions with a meaning
# (subject, eating, food, feeling); the three matrices are chosen by hand so that what each
# role does can be read off their numbers. Q, K and V are computed: X W_Q, X W_K, X W_V.
EAT_APPLE_TOKENS = ("我", "吃", "蘋果", "很", "開心")
EAT_APPLE_GLOSS = ("I", "eat", "apple", "very", "happy")
EAT_APPLE_X = (
    (1.0, 0.0, 0.0, 0.2),  # 我: a subject, a little feeling
    (0.0, 1.0, 0.0, 0.0),  # 吃: eating
    (0.0, 0.3, 1.0, 0.0),  # 蘋果: food, a little eating
    (0.0, 0.0, 0.0, 0.5),  # 很: some feeling
    (0.2, 0.0, 0.0, 1.0),  # 開心: feeling, a little subject
)
# Rows: the input dimension; columns: the dimension it feeds in the Query space.
EAT_APPLE_W_Q = (
    (0.0, 1.0, 0.5, 0.0),  # a subject looks for eating and food
    (1.0, 0.0, 1.0, 0.0),  # eating looks for a subject and food
    (0.5, 2.0, 0.5, 0.0),  # food looks mostly for eating
    (0.0, 0.0, 0.0, 1.5),  # feeling looks for feeling
)
EAT_APPLE_W_K = (  # what a word is about, louder; feeling also tells who feels
    (2.0, 0.0, 0.0, 0.0),
    (0.0, 2.0, 0.0, 0.0),
    (0.0, 0.0, 2.0, 0.0),
    (0.5, 0.0, 0.0, 2.0),
)
EAT_APPLE_W_V = (  # what a word hands over: its meaning, food also says "being eaten"
    (1.0, 0.0, 0.0, 0.0),
    (0.0, 1.0, 0.0, 0.0),
    (0.0, 0.2, 1.0, 0.0),
    (0.0, 0.0, 0.0, 1.0),
)
EAT_APPLE_SHORT = 3  # "我 吃 蘋果"

# Dimensions of the it_cat vectors: entity, action, feeling, function word. V = K, as in
# seed 002's page.
IT_CAT_TOKENS = ("The", "cat", "was", "scared", "so", "it", "hid")
IT_CAT_Q = (
    (0.0, 0.0, 0.0, 0.5),
    (0.0, 1.0, 1.0, 0.0),
    (1.0, 0.0, 1.0, 0.0),
    (2.0, 0.0, 0.0, 0.0),
    (0.0, 1.0, 0.0, 1.0),
    (3.9, 0.0, 0.0, 0.0),
    (2.5, 0.0, 0.5, 0.0),
)
IT_CAT_K = (
    (0.0, 0.0, 0.0, 1.0),
    (2.0, 0.0, 0.3, 0.0),
    (0.0, 0.5, 0.0, 0.8),
    (0.2, 0.3, 2.0, 0.0),
    (0.0, 0.0, 0.0, 1.2),
    (0.8, 0.0, 0.0, 0.5),
    (0.0, 2.0, 0.4, 0.0),
)
IT_CAT_TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)

# The office's people are the lecture file's (model.config: DEFAULT_OFFICE by default).
OFFICE_SWEEP_ANGLES = (0, 45, 90, 135, 180, 225, 270, 315)  # degrees, at length 1.5
OFFICE_SWEEP_LENGTH = 1.5
OFFICE_LENGTHS = (0.5, 1.0, 2.0, 4.0)  # towards the accountant


def _t(rows: tuple[tuple[float, ...], ...]) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float64)


def attention_rows(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float, causal: bool = False
) -> dict[str, Any]:
    """Scores, weights and outputs of softmax(Q K^T / scale) V, with an optional causal mask.

    Masked scores are stored as ``None`` (they are minus infinity) and their weights are 0.
    """
    scores = q @ k.T / scale  # (n_q, n_k)
    if causal:
        mask = torch.triu(torch.ones_like(scores, dtype=torch.bool), diagonal=1)  # (n, n)
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # (n_q, n_k); exp(-inf) = 0
    exps = torch.exp(scores)  # (n_q, n_k): softmax's numerators, before the division
    return {
        "scale": scale,
        "scores": [[None if math.isinf(s) else s for s in row] for row in scores.tolist()],
        "exps": [
            [None if m else e for e, m in zip(row, mrow, strict=True)]
            for row, mrow in zip(exps.tolist(), torch.isinf(scores).tolist(), strict=True)
        ],
        "weights": weights.tolist(),
        "outputs": (weights @ v).tolist(),  # (n_q, d)
    }


def contributions(weights: list[float], v: torch.Tensor) -> list[list[float]]:
    """Each key's share of one output: w_j * v_j, (n_k,) and (n_k, d) -> (n_k, d)."""
    return (torch.tensor(weights, dtype=torch.float64).unsqueeze(1) * v).tolist()


def eat_apple() -> dict[str, Any]:
    """Seed 003's walk through one query row, then the causal mask on the longer sentence."""
    x = _t(EAT_APPLE_X)  # (n, d)
    w_q, w_k, w_v = _t(EAT_APPLE_W_Q), _t(EAT_APPLE_W_K), _t(EAT_APPLE_W_V)  # (d, d) each
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # (n, d) each
    d = q.shape[1]
    n = EAT_APPLE_SHORT
    last = q[n - 1 : n]  # (1, d): the query of 蘋果
    last_row = attention_rows(last, k[:n], v[:n], math.sqrt(d))
    return {
        "tokens": list(EAT_APPLE_TOKENS),
        "gloss": list(EAT_APPLE_GLOSS),
        "d": d,
        "x": x.tolist(),
        "w_q": w_q.tolist(),
        "w_k": w_k.tolist(),
        "w_v": w_v.tolist(),
        "q": q.tolist(),
        "k": k.tolist(),
        "v": v.tolist(),
        "short": n,
        "query_index": n - 1,
        "dots": (last @ k[:n].T)[0].tolist(),  # raw q.k before the division
        "products": (last * k[:n]).tolist(),  # element products, summed into the dots
        "last_row": last_row,
        "contributions": contributions(last_row["weights"][0], v[:n]),  # sum: the output
        "residual": (x[n - 1] + torch.tensor(last_row["outputs"][0])).tolist(),  # x + output
        "short_full": attention_rows(q[:n], k[:n], v[:n], math.sqrt(d)),  # every row, no mask
        "causal": attention_rows(q, k, v, math.sqrt(d), causal=True),
    }


def it_cat() -> dict[str, Any]:
    """Seed 002's sentence: the full map at T = 1, with and without sqrt(d), and a T sweep."""
    q, k = _t(IT_CAT_Q), _t(IT_CAT_K)
    d = q.shape[1]
    scaled = attention_rows(q, k, k, math.sqrt(d))
    it = IT_CAT_TOKENS.index("it")
    return {
        "tokens": list(IT_CAT_TOKENS),
        "query_index": it,
        "contributions": contributions(scaled["weights"][it], k),  # it's output, term by term
        "d": d,
        "q": q.tolist(),
        "k": k.tolist(),
        "v": k.tolist(),
        "scaled": scaled,
        "unscaled": attention_rows(q, k, k, 1.0),
        "temperatures": [
            {"t": t, **attention_rows(q, k, k, math.sqrt(d) * t)} for t in IT_CAT_TEMPERATURES
        ],
    }


def _office_stop(keys: torch.Tensor, values: torch.Tensor, angle: float, length: float) -> dict:
    rad = math.radians(angle)
    query = torch.tensor([[length * math.cos(rad), length * math.sin(rad)]], dtype=torch.float64)
    row = attention_rows(query, keys, values.unsqueeze(1), math.sqrt(2))
    return {
        "angle": angle,
        "length": length,
        "query": query[0].tolist(),
        "scores": row["scores"][0],
        "weights": row["weights"][0],
        "output": row["outputs"][0][0],  # the weighted average of the days
    }


def office(people: tuple[Colleague, ...] = DEFAULT_OFFICE) -> dict[str, Any]:
    """The office analogy: a Query arrow sweeping round, then growing towards the first
    person."""
    keys = torch.tensor([p.key for p in people], dtype=torch.float64)
    values = torch.tensor([p.days for p in people], dtype=torch.float64)
    target = math.degrees(math.atan2(keys[0, 1].item(), keys[0, 0].item()))
    return {
        "people": [p.id for p in people],
        "keys": keys.tolist(),
        "values": values.tolist(),
        "scale": math.sqrt(2),
        "sweep": [_office_stop(keys, values, a, OFFICE_SWEEP_LENGTH) for a in OFFICE_SWEEP_ANGLES],
        "grow": [_office_stop(keys, values, target, length) for length in OFFICE_LENGTHS],
    }
