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

from model.config import Colleague
from model.sentences import IT_CAT_TEMPERATURES, Pronoun, Walkthrough

# The office's people are the lecture file's ([[task.office]]).
OFFICE_SWEEP_ANGLES = (0, 45, 90, 135, 180, 225, 270, 315)  # degrees, at length 1.5
OFFICE_SWEEP_LENGTH = 1.5
OFFICE_LENGTHS = (0.5, 1.0, 2.0, 4.0)  # towards the accountant


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


def eat_apple(sentence: Walkthrough) -> dict[str, Any]:
    """Seed 003's walk through one query row, then the causal mask on the longer sentence."""
    x = torch.tensor(sentence.x, dtype=torch.float64)  # (n, d)
    w_q, w_k, w_v = (
        torch.tensor(w, dtype=torch.float64) for w in (sentence.w_q, sentence.w_k, sentence.w_v)
    )  # (d, d) each
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # (n, d) each
    d = q.shape[1]
    n = sentence.short
    last = q[n - 1 : n]  # (1, d): the query of the asking word (蘋果)
    last_row = attention_rows(last, k[:n], v[:n], math.sqrt(d))
    sense = sentence.other_sense
    return {
        "tokens": list(sentence.tokens),
        "gloss": list(sentence.gloss or sentence.tokens),
        "dims": sentence.dims,
        "other_sense": None if sense is None else sense.model_dump(mode="json"),
        "vocabulary": dict(sentence.vocabulary),  # the page's own-sentence demo: more words
        "target": int(torch.argmax(torch.tensor(last_row["weights"][0]))),
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


def it_cat(sentence: Pronoun) -> dict[str, Any]:
    """Seed 002's sentence: the full map at T = 1, with and without sqrt(d), and a T sweep.

    The referent is the word the pronoun gives the most weight at T = 1; dividing by √d or
    by any T > 0 keeps each row's order, so it is the top word at every temperature too.
    """
    q = torch.tensor(sentence.q, dtype=torch.float64)  # (n, d)
    k = torch.tensor(sentence.k, dtype=torch.float64)  # (n, d); V = K
    d = q.shape[1]
    scaled = attention_rows(q, k, k, math.sqrt(d))
    it = sentence.query
    return {
        "tokens": list(sentence.tokens),
        "dims": sentence.dims,
        "query_index": it,
        "referent": int(torch.argmax(torch.tensor(scaled["weights"][it]))),
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
        "dots": (query @ keys.T)[0].tolist(),  # query · key, before the division by √2
        "scores": row["scores"][0],
        "weights": row["weights"][0],
        "output": row["outputs"][0][0],  # the weighted average of the days
    }


def office(people: tuple[Colleague, ...]) -> dict[str, Any]:
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
