"""Measuring the voice as a listener would (the ``measure`` extra, never a render's
dependency): an offline speech recogniser, error rates, and pitch and loudness at joins."""
