"""Multi-head attention learned for real, and seed 003's width bookkeeping.

A task that needs two kinds of "related" at once (the mean of a position's colour, and the
number just before it) is learned by two heads with W_O, and by four. Each head has its own
slice of W_Q, W_K and W_V and its own map; the lab records every map and how well it matches
each rule, so that the lecture shows which head learned what (and the tests say so when a
run does not specialise).
"""

from __future__ import annotations

from typing import Any

import torch

from model.attention import MultiHeadAttention
from model.config import LectureConfig
from model.probes import sinusoidal_table
from model.streams import Stream
from model.task import encode, previous_values, sample_batch, targets_for
from model.train import Task, fit, generator, seed_weights

BOOKKEEPING_WIDTH, BOOKKEEPING_HEADS = 4096, 32
HEADS_WIDTH = 8  # H x d_head: two heads of 4, or four heads of 2
POSITION_WIDTH = 8  # width of the sin/cos table concatenated to the input
HEADS_STEPS = 1000
KV_GROUP = 4  # query heads sharing one K, V head in the grouped-query example
EXAMPLE = "mixed"


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
        "kv_group": KV_GROUP,
        "kv_heads": heads // KV_GROUP,
    }


def heads_task(config: LectureConfig) -> Task:
    """Two kinds of "related" at once: each position outputs the mean of its colour and the
    number of the position just before it (0 at the first)."""
    n_colours = len(config.colours)

    def draw(size: int, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        batch = sample_batch(size, config.positions, n_colours, g)
        return heads_input(config, batch.colours, batch.values), heads_targets(
            batch.colours, batch.values
        )

    return draw


def heads_input(config: LectureConfig, colours: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """One-hot colour, number and the sin/cos positional table, concatenated: (B, n, c+1+w)."""
    x = encode(colours, values, len(config.colours))  # (B, n, c + 1)
    table = sinusoidal_table(config.positions, POSITION_WIDTH).to(values.dtype)  # (n, w)
    return torch.cat([x, table.expand(x.shape[0], -1, -1)], dim=-1)


def heads_targets(colours: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """(B, n) -> (B, n, 2): the mean of the position's colour, the number before it."""
    return torch.stack([targets_for(colours, values), previous_values(values)], dim=-1)


def _ideal_maps(colours: list[int]) -> dict[str, torch.Tensor]:
    """The two rules a head could learn, as maps: colour blocks, and one to the left."""
    c = torch.tensor(colours)
    same = (c.unsqueeze(1) == c.unsqueeze(0)).double()  # (n, n)
    left = torch.diag(torch.ones(len(colours) - 1, dtype=torch.float64), -1)  # (n, n)
    return {"colour": same / same.sum(-1, keepdim=True), "previous": left}


def overlap(a: torch.Tensor, b: torch.Tensor, rows: slice = slice(None)) -> float:
    """How alike two maps are: the mean over rows of sum_j min(a_ij, b_ij), from 0 to 1."""
    return torch.minimum(a[rows], b[rows]).sum(-1).mean().item()


def without_head(model: MultiHeadAttention, x: torch.Tensor, h: int) -> torch.Tensor:
    """The model's outputs (B, n, d_out) with head ``h``'s output zeroed before the join."""
    heads, _ = model.attend(x)  # (B, H, n, d_head)
    heads = heads.clone()
    heads[:, h] = 0
    b, _, n, _ = heads.shape
    concat = heads.transpose(1, 2).reshape(b, n, model.heads * model.d_head)  # (B, n, H dh)
    return model.readout(model.w_o(concat))


def ablated_mse(config: LectureConfig, model: MultiHeadAttention) -> list[float]:
    """For each head, the validation MSE (the same set as ``val_mse``) with its output zeroed."""
    inputs, targets = heads_task(config)(
        config.val_size, generator(config, Stream.HEADS_VALIDATION)
    )
    with torch.no_grad():
        return [
            torch.mean((without_head(model, inputs, h) - targets) ** 2).item()
            for h in range(model.heads)
        ]


def heads_run(config: LectureConfig, heads: int) -> dict[str, Any]:
    """Train ``heads`` heads with W_O on the two-relation task; read each head's map."""
    seed_weights(config, Stream.HEADS_INIT)
    d_in = len(config.colours) + 1 + POSITION_WIDTH
    model = MultiHeadAttention(d_in, heads, HEADS_WIDTH // heads, 2)
    streams = (Stream.HEADS_BATCHES, Stream.HEADS_VALIDATION)
    result = fit(config, model, heads_task(config), streams, HEADS_STEPS)
    colours = torch.tensor([config.pattern_indices(config.examples[EXAMPLE])])  # (1, n)
    values = torch.randn(1, config.positions, generator=generator(config, Stream.HEADS_EXAMPLES))
    x = heads_input(config, colours, values)  # (1, n, d_in)
    with torch.no_grad():
        outputs, maps = model(x)
        head_outputs, _ = model.attend(x)
        v = model._split(model.w_v(x))  # (1, H, n, d_head)
        joined = head_outputs.transpose(1, 2).reshape(1, config.positions, HEADS_WIDTH)
        layer_out = model.w_o(joined)  # (1, n, width): the heads mixed by W_O
    maps64 = maps[0].double()  # (H, n, n)
    ideal = _ideal_maps(colours[0].tolist())
    return {
        "heads": heads,
        "d_head": HEADS_WIDTH // heads,
        "width": HEADS_WIDTH,
        "position_width": POSITION_WIDTH,
        **result.summary(),
        "example": EXAMPLE,
        "colours": colours[0].tolist(),
        "values": values[0].tolist(),
        "targets": heads_targets(colours, values)[0].tolist(),  # (n, 2): colour mean, before
        "predictions": outputs[0].tolist(),  # (n, 2)
        "maps": maps64.tolist(),  # (H, n, n)
        "head_outputs": head_outputs[0].tolist(),  # (H, n, d_head)
        "v": v[0].tolist(),  # (H, n, d_head): each head's V, its map x V = its output
        "layer_out": layer_out[0].tolist(),  # (n, width): the joined outputs x W_O
        "position_table": sinusoidal_table(config.positions, POSITION_WIDTH).tolist(),  # (n, w)
        "w_o": model.w_o.weight.detach().T.tolist(),  # (H d_head, H d_head)
        "colour_match": [overlap(m, ideal["colour"]) for m in maps64],
        "previous_match": [overlap(m, ideal["previous"], slice(1, None)) for m in maps64],
        "similarity": [[overlap(a, b) for b in maps64] for a in maps64],  # (H, H)
        "ablated_mse": ablated_mse(config, model),  # (H,): val MSE with that head zeroed
    }
