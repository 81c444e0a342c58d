"""Train the attention head on the colour task, deterministically, and measure it."""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch

from model.attention import SelfAttention
from model.config import LectureConfig
from model.task import encode, sample_batch

# Separate streams, so that changing the number of steps does not change the
# validation set or the example values.
_TRAIN_STREAM, _VAL_STREAM, _EXAMPLE_STREAM = 0, 1, 2


def generator(config: LectureConfig, stream: int) -> torch.Generator:
    """A torch generator for one named stream of the config's seed."""
    return torch.Generator().manual_seed(config.seed * 1000 + stream)


@dataclass
class TrainResult:
    """The trained model and what was measured while training it."""

    model: SelfAttention
    loss_curve: list[float]
    train_ms: float
    val_mse: float
    baseline_mse: float


def train(config: LectureConfig) -> TrainResult:
    """Train with Adam on fresh batches; validate on ``val_size`` unseen sequences.

    Same config, same numbers to the last bit on the same machine: one thread, seeded
    generators, deterministic algorithms.
    """
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(config.seed)
    n_colours = len(config.colours)
    model = SelfAttention(d_in=n_colours + 1, d=config.d)
    optimiser = torch.optim.Adam(model.parameters(), lr=config.lr)
    batches = generator(config, _TRAIN_STREAM)

    loss_curve: list[float] = []
    start = time.perf_counter()
    for _ in range(config.steps):
        batch = sample_batch(config.batch_size, config.positions, n_colours, batches)
        predictions, _ = model(encode(batch.colours, batch.values, n_colours))
        loss = torch.mean((predictions - batch.targets) ** 2)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        loss_curve.append(loss.item())
    train_ms = (time.perf_counter() - start) * 1000

    val = sample_batch(config.val_size, config.positions, n_colours, generator(config, _VAL_STREAM))
    with torch.no_grad():
        predictions, _ = model(encode(val.colours, val.values, n_colours))
    val_mse = torch.mean((predictions - val.targets) ** 2).item()
    baseline_mse = torch.mean(val.targets**2).item()  # always predicting 0
    return TrainResult(model, loss_curve, train_ms, val_mse, baseline_mse)
