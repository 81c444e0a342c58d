"""Train the attention head on the colour task, deterministically, and measure it."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
    watched: list[Any] = field(default_factory=list)  # what ``watch`` saw, at each of ``at``

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
    config: LectureConfig,
    model: nn.Module,
    task: Task,
    streams: tuple[Stream, Stream],
    steps: int,
    watch: Callable[[nn.Module], Any] | None = None,
    at: Sequence[int] = (),
) -> TrainResult:
    """Train ``model`` with Adam on fresh batches of ``task``; validate on unseen ones.

    Same config, same numbers to the last bit on the same machine: one thread, seeded
    generators (``streams``: training batches, validation set), deterministic algorithms.
    ``watch(model)`` is called, without gradients, before each step listed in ``at`` (0:
    untrained); it draws nothing from the generators, so the run is the same without it.
    """
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    optimiser = torch.optim.Adam(model.parameters(), lr=config.lr)
    batches = generator(config, streams[0])
    loss_curve: list[float] = []
    watched: list[Any] = []
    start = time.perf_counter()
    for step in range(steps):
        if watch is not None and step in at:
            with torch.no_grad():
                watched.append(watch(model))
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
    return TrainResult(model, loss_curve, train_ms, val_mse, baseline_mse, watched)


# Where the map is looked at while it settles: these shares of the run, log-spaced (the
# loss falls fastest at the start).
SETTLING_SHARES = (0.0, 0.01, 0.02, 0.03, 0.05, 0.1)


def settling_steps(steps: int) -> list[int]:
    """The steps (before their update) at which the settling maps are taken."""
    return sorted({min(round(share * steps), steps - 1) for share in SETTLING_SHARES})


def train(
    config: LectureConfig, watch: Callable[[nn.Module], Any] | None = None, at: Sequence[int] = ()
) -> TrainResult:
    """The lecture's head, trained on the colour task (``watch``, ``at``: see :func:`fit`)."""
    seed_weights(config, Stream.TRAIN_INIT)
    model = SelfAttention(d_in=len(config.colours) + 1, d=config.d)
    streams = (Stream.TRAIN_BATCHES, Stream.VALIDATION)
    return fit(config, model, colour_task(config), streams, config.steps, watch, at)
