"""The colour-averaging task of seed 000.

Each of n positions carries a colour (one of the config's colours) and a number. The target
at position i is the mean of the numbers at every position with i's colour, i itself
included. The only way to solve it is for each position to look at the positions of its own
colour and average their numbers, which is what attention can learn.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Batch:
    """A batch of sequences of the colour task.

    Attributes
    ----------
    colours : (B, n) long tensor of colour indices
    values  : (B, n) float tensor of the numbers
    targets : (B, n) float tensor, the same-colour means
    """

    colours: torch.Tensor
    values: torch.Tensor
    targets: torch.Tensor


def same_colour_mask(colours: torch.Tensor) -> torch.Tensor:
    """(B, n) colours -> (B, n, n) float mask, 1 where positions i and j share a colour."""
    return (colours.unsqueeze(-1) == colours.unsqueeze(-2)).to(torch.get_default_dtype())


def targets_for(colours: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Mean of the values of every same-coloured position: (B, n), (B, n) -> (B, n)."""
    mask = same_colour_mask(colours).to(values.dtype)  # (B, n, n)
    return (mask @ values.unsqueeze(-1)).squeeze(-1) / mask.sum(-1)  # (B, n)


def causal_targets_for(colours: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Mean of the values of the same-coloured positions so far (itself included): (B, n)."""
    n = colours.shape[-1]
    so_far = torch.tril(torch.ones(n, n, dtype=values.dtype))  # (n, n): key at or before query
    mask = same_colour_mask(colours).to(values.dtype) * so_far  # (B, n, n)
    return (mask @ values.unsqueeze(-1)).squeeze(-1) / mask.sum(-1)  # (B, n)


def previous_values(values: torch.Tensor) -> torch.Tensor:
    """The number of the position just before each position, 0 at the first: (B, n)."""
    return torch.cat([torch.zeros_like(values[:, :1]), values[:, :-1]], dim=-1)


def encode(colours: torch.Tensor, values: torch.Tensor, n_colours: int) -> torch.Tensor:
    """Model input X: one-hot colour followed by the number, (B, n) -> (B, n, n_colours + 1)."""
    onehot = torch.nn.functional.one_hot(colours, n_colours).to(values.dtype)  # (B, n, c)
    return torch.cat([onehot, values.unsqueeze(-1)], dim=-1)  # (B, n, c + 1)


def sample_batch(size: int, positions: int, n_colours: int, generator: torch.Generator) -> Batch:
    """Draw ``size`` random sequences: uniform colours, standard normal numbers."""
    colours = torch.randint(0, n_colours, (size, positions), generator=generator)
    values = torch.randn(size, positions, generator=generator)
    return Batch(colours, values, targets_for(colours, values))
