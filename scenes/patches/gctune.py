"""Python's cycle collector run less often while a scene is built and drawn.

A chapter makes hundreds of thousands of small objects (every glyph of every text is a
mobject of some thirty attributes, every copy another) and keeps most of them to its end.
Python's collector looks for reference cycles among young objects every 700 allocations
and walks older ones every tenth time, so a dry run spent about a sixth of its time walking
objects that were still in use. :func:`install` raises the thresholds to
:data:`THRESHOLDS`: the collector still runs and frees every cycle, only in larger batches.
Measured on the gates' dry runs of six chapters in both languages, run side by side: 11 %
less CPU; peak memory 490 MB then 634 MB (with no collection at all: 17 % less, and 1 GB,
growing). The objects are the same, so the frames are.
"""

from __future__ import annotations

import gc

THRESHOLDS = (20_000, 20, 20)  # Python's own: (700, 10, 10)


def install() -> None:
    """Collect cycles in larger batches."""
    gc.set_threshold(*THRESHOLDS)
