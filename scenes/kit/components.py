"""The kit's pictures moved to scenes/kit/labels.py, maps.py, vectors.py and diagrams.py;
this name goes once scenes/kit/base.py imports them from there."""

from scenes.kit.labels import ColourMarker, ContentsList
from scenes.kit.maps import AttentionGrid
from scenes.kit.vectors import LookingArrows, WeightBars

__all__ = ["AttentionGrid", "ColourMarker", "ContentsList", "LookingArrows", "WeightBars"]
