"""The colour task under a causal mask (seed 003): a position sees only itself and the past.

The target at position i is the mean of the numbers of i's colour at positions up to i. The
same head as the lecture's, trained with the mask on, must learn a lower-triangular version
of the colour blocks: row i splits 1/k_i over the k_i same-coloured positions so far.
"""

from __future__ import annotations

from typing import Any

import torch

from model.attention import SelfAttention
from model.config import LectureConfig
from model.streams import Stream
from model.task import causal_targets_for, encode, sample_batch
from model.train import Task, fit, generator, seed_weights

EXAMPLE = "mixed"  # the pattern shown beside the bidirectional map
STEPS = 600  # fewer than the lecture's head needs: the masked task is learned sooner


def causal_task(config: LectureConfig) -> Task:
    """One-hot colour and number in; the same-colour mean so far out."""
    n_colours = len(config.colours)

    def draw(size: int, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        batch = sample_batch(size, config.positions, n_colours, g)
        return encode(batch.colours, batch.values, n_colours), causal_targets_for(
            batch.colours, batch.values
        )

    return draw


def causal_run(config: LectureConfig) -> dict[str, Any]:
    """Train the masked head and run it on the lecture's example pattern."""
    seed_weights(config, Stream.CAUSAL_INIT)
    n_colours = len(config.colours)
    model = SelfAttention(d_in=n_colours + 1, d=config.d, causal=True)
    streams = (Stream.CAUSAL_BATCHES, Stream.CAUSAL_VALIDATION)
    result = fit(config, model, causal_task(config), streams, STEPS)
    colours = torch.tensor([config.pattern_indices(config.examples[EXAMPLE])])  # (1, n)
    values = torch.randn(1, config.positions, generator=generator(config, Stream.CAUSAL_EXAMPLES))
    with torch.no_grad():
        predictions, attention = model(encode(colours, values, n_colours))
    return {
        **result.summary(),
        "example": EXAMPLE,
        "colours": colours[0].tolist(),
        "values": values[0].tolist(),
        "targets": causal_targets_for(colours, values)[0].tolist(),
        "predictions": predictions[0].tolist(),
        "attention": attention[0].tolist(),  # (n, n), zero above the diagonal
    }
