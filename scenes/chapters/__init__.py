"""The lecture's chapters, content only: each module imports ``scenes.kit`` and Manim (and
another chapter it varies); machinery lives in the kit. ``plan.toml`` lists them in order."""
