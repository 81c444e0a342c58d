"""Seed 000's two dead ends, counted: one long concatenated vector, and a fixed window.

Concatenating a sentence's word vectors makes the input as long as the sentence, so the
first layer of a plain network needs ``length × width × hidden`` weights, a number that
grows with every word (and a network built for one length cannot take another). The
projections of one attention head, ``W_Q``, ``W_K`` and ``W_V``, are ``3 × width × width``
weights whatever the length. The width is that of the original Transformer's base model
(d_model = 512, Vaswani et al. 2017), and the hidden layer is as wide.
"""

from __future__ import annotations

from typing import Any

WIDTH = 512  # d_model of the base Transformer in "Attention Is All You Need"
LENGTHS = (5, 50, 500)  # words in a sentence: short, a paragraph's sentence, a page
WINDOW = 3  # seed 000's window: three words on each side


def dead_ends(width: int = WIDTH, lengths: tuple[int, ...] = LENGTHS) -> dict[str, Any]:
    """Input sizes and first-layer weights of the concatenation, against attention's."""
    hidden = width
    return {
        "width": width,
        "hidden": hidden,
        "lengths": list(lengths),
        "concat_inputs": [n * width for n in lengths],
        "concat_weights": [n * width * hidden for n in lengths],
        "attention_weights": 3 * width * width,
        "window": WINDOW,
    }
