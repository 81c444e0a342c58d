"""Train the attention head on the colour task, deterministically, and measure it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from model.attention import SelfAttention
from model.config import LectureConfig
from model.streams import Stream, stream_seed
from model.task import encode, sample_batch


def generator(config: LectureConfig, stream: Stream) -> torch.Generator:
    """A torch generator for one named stream of the config's seed."""
    return torch.Generator().manual_seed(stream_seed(config.seed, stream))


def seed_weights(config: LectureConfig, stream: Stream) -> None:
    """Seed torch's global generator, which initialises a module's weights, from ``stream``."""
    torch.manual_seed(stream_seed(config.seed, stream))


@dataclass
class TrainResult:
    """The trained model and what was measured while training it."""

    model: nn.Module
    loss_curve: list[float]
    train_ms: float
    val_mse: float
    baseline_mse: float

    def summary(self) -> dict[str, Any]:
        """The run as the data file records it (``model.parts.Run``)."""
        return {
            "steps": len(self.loss_curve),
            "loss_curve": self.loss_curve,
            "train_ms": self.train_ms,
            "val_mse": self.val_mse,
            "baseline_mse": self.baseline_mse,
        }


# A task: draws (inputs, targets) for a batch size from a generator.
Task = Callable[[int, torch.Generator], tuple[torch.Tensor, torch.Tensor]]


def colour_task(config: LectureConfig) -> Task:
    """The colour task: one-hot colour and number in, the same-colour mean out."""
    n_colours = len(config.colours)

    def draw(size: int, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        batch = sample_batch(size, config.positions, n_colours, g)
        return encode(batch.colours, batch.values, n_colours), batch.targets

    return draw


def fit(
    config: LectureConfig, model: nn.Module, task: Task, streams: tuple[Stream, Stream], steps: int
) -> TrainResult:
    """Train ``model`` with Adam on fresh batches of ``task``; validate on unseen ones.

    Same config, same numbers to the last bit on the same machine: one thread, seeded
    generators (``streams``: training batches, validation set), deterministic algorithms.
    """
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    optimiser = torch.optim.Adam(model.parameters(), lr=config.lr)
    batches = generator(config, streams[0])
    loss_curve: list[float] = []
    start = time.perf_counter()
    for _ in range(steps):
        inputs, targets = task(config.batch_size, batches)
        predictions, _ = model(inputs)
        loss = torch.mean((predictions - targets) ** 2)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        loss_curve.append(loss.item())
    train_ms = (time.perf_counter() - start) * 1000

    inputs, targets = task(config.val_size, generator(config, streams[1]))
    with torch.no_grad():
        predictions, _ = model(inputs)
    val_mse = torch.mean((predictions - targets) ** 2).item()
    baseline_mse = torch.mean(targets**2).item()  # always predicting 0
    return TrainResult(model, loss_curve, train_ms, val_mse, baseline_mse)


def train(config: LectureConfig) -> TrainResult:
    """The lecture's head, trained on the colour task."""
    seed_weights(config, Stream.TRAIN_INIT)
    model = SelfAttention(d_in=len(config.colours) + 1, d=config.d)
    streams = (Stream.TRAIN_BATCHES, Stream.VALIDATION)
    return fit(config, model, colour_task(config), streams, config.steps)
