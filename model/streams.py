"""The model's random streams, one per purpose, each with its own name. Imports no torch.

Every random draw of a run comes from one of these streams, seeded by
:func:`stream_seed` from the config's seed: ``seed * STRIDE + stream``. Stream numbers are
distinct (an :class:`~enum.IntEnum` with ``@unique``) and below :data:`STRIDE`, so two
streams of one seed, or of two seeds, never share a seed; the seed is bounded by
:data:`MAX_SEED`, so the result always fits torch's 64-bit seed. Changing the number of
steps therefore changes neither the validation set nor the example values, and a weight
initialisation never replays a batch stream.
"""

from __future__ import annotations

from enum import IntEnum, unique

STRIDE = 1000  # stream numbers stay below this
MAX_SEED = 2**32 - 1  # seed * STRIDE + stream < 2**63 (torch's seeds are signed 64-bit)


@unique
class Stream(IntEnum):
    """Each purpose a run draws random numbers for."""

    TRAIN_BATCHES = 0  # the colour task's training batches
    VALIDATION = 1  # its unseen validation sequences
    EXAMPLES = 2  # the values of the named example patterns
    RANDOM_PATTERNS = 3  # the drawn patterns random_1, random_2...
    TRAIN_INIT = 4  # the lecture head's initial weights
    PROJECTION = 10  # the projection pitfall's random words and matrices
    SQRT_D = 11  # the √d probe's random queries and keys
    SQRT_D_WALKS = 13  # the √d probe's random walks: q.k term by term
    SHUFFLE = 12  # the shuffle probe's values
    CAUSAL_BATCHES = 30  # the masked head's training batches
    CAUSAL_VALIDATION = 31
    CAUSAL_EXAMPLES = 32
    CAUSAL_INIT = 33
    HEADS_BATCHES = 40  # the multi-head model's training batches
    HEADS_VALIDATION = 41
    HEADS_EXAMPLES = 42
    HEADS_INIT = 43


def stream_seed(seed: int, stream: Stream) -> int:
    """The seed of one stream of a run's seed (never the same for two (seed, stream) pairs)."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0..{MAX_SEED}, got {seed}")
    return seed * STRIDE + int(stream)
