"""Run the model side of the lecture and gather everything the scenes will show."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import torch

from common.processes import child_context, die_with_parent
from model import causal, handmade, multihead, probes
from model.attention import SelfAttention
from model.config import LectureConfig
from model.datafile import SCHEMA_VERSION, model_source_hash, nest
from model.dead_ends import dead_ends
from model.sentences import Walkthrough
from model.streams import Stream
from model.task import encode, targets_for
from model.train import TrainResult, generator, seed_weights, settling_steps, train


def _matrix(linear: torch.nn.Linear) -> list[list[float]]:
    """A Linear's weight in the X W convention: (d_out, d_in) -> (d_in, d_out)."""
    return linear.weight.detach().T.tolist()


RANDOM_EXAMPLES = 3


def example_patterns(config: LectureConfig) -> dict[str, str]:
    """The config's named patterns plus ``random_1``.. drawn from the seed."""
    g = generator(config, Stream.RANDOM_PATTERNS)
    patterns = dict(config.examples)
    for r in range(1, RANDOM_EXAMPLES + 1):
        draw = torch.randint(0, len(config.colours), (config.positions,), generator=g)
        patterns[f"random_{r}"] = "".join(config.initials[c] for c in draw.tolist())
    return patterns


def same_prediction(w: torch.Tensor, gives: torch.Tensor, others: torch.Tensor) -> torch.Tensor:
    """Other weights for one row that give the readout the same number: all of it on two
    positions (of the ``others``, where two of them bracket it), split so that the weighted
    sum of what each position's V gives the readout (``gives``) stays ``w @ gives``. The
    readout is linear, so the prediction is unchanged (Jain and Wallace's point, 2019)."""
    s = w @ gives
    pool = others if (others & (gives <= s)).any() and (others & (gives >= s)).any() else None
    pool = torch.ones_like(others) if pool is None else pool
    low = torch.where(pool & (gives <= s), gives, torch.inf).argmin()
    high = torch.where(pool & (gives >= s), gives, -torch.inf).argmax()
    swap = torch.zeros_like(w)
    if gives[high] - gives[low] < 1e-12:
        swap[low] = 1.0
        return swap
    share = (gives[high] - s) / (gives[high] - gives[low])
    swap[low], swap[high] = share, 1 - share
    return swap


def example_inputs(config: LectureConfig) -> dict[str, tuple[str, torch.Tensor, torch.Tensor]]:
    """Each named pattern with its seeded numbers: (pattern, colours (1, n), values (1, n))."""
    numbers = generator(config, Stream.EXAMPLES)
    inputs = {}
    for name, pattern in example_patterns(config).items():
        colours = torch.tensor([config.pattern_indices(pattern)])  # (1, n)
        values = torch.randn(1, config.positions, generator=numbers)  # (1, n)
        inputs[name] = (pattern, colours, values)
    return inputs


def example_maps(config: LectureConfig) -> Callable[[torch.nn.Module], dict[str, Any]]:
    """What to watch while training: each example's outputs and attention map as the model
    has them, {name: (predictions (n,), attention (n, n))}."""
    inputs = {
        name: encode(colours, values, len(config.colours))  # (1, n, c + 1)
        for name, (_, colours, values) in example_inputs(config).items()
    }

    def watch(model: torch.nn.Module) -> dict[str, Any]:
        seen = {name: model(x) for name, x in inputs.items()}  # (1, n), (1, n, n)
        return {name: (p[0].tolist(), a[0].tolist()) for name, (p, a) in seen.items()}

    return watch


def run_examples(
    config: LectureConfig, result: TrainResult, settling: list[dict[str, Any]]
) -> dict[str, Any]:
    """Each named pattern with seeded numbers, run through the trained model; ``settling``:
    every example's map at each of :func:`settling_steps`, as training watched it."""
    examples: dict[str, Any] = {}
    for name, (pattern, colours, values) in example_inputs(config).items():
        x = encode(colours, values, len(config.colours))  # (1, n, c + 1)
        with torch.no_grad():
            predictions, attention = result.model(x)
            scores = result.model.scores(x)  # (1, n, n), before the softmax
            v = result.model.w_v(x)  # (1, n, d): what each position hands over
            head_out = attention @ v  # (1, n, d): each row's weighted sum of the V's
            gives = v[0] @ result.model.readout.weight[0]  # (n,): each V, read out
            swap = torch.stack(
                [
                    same_prediction(attention[0, i], gives, colours[0] != colours[0, i])
                    for i in range(config.positions)
                ]
            )  # (n, n): other weights, other positions, the same predictions
            swap_predictions = result.model.readout(swap @ v[0]).squeeze(-1)  # (n,)
        examples[name] = {
            "pattern": pattern,
            "colours": colours[0].tolist(),
            "values": values[0].tolist(),
            "targets": targets_for(colours, values)[0].tolist(),
            "predictions": predictions[0].tolist(),
            "attention": attention[0].tolist(),
            "scores": scores[0].tolist(),
            "v": v[0].tolist(),
            "head_out": head_out[0].tolist(),
            "swap_attention": swap.tolist(),
            "swap_predictions": swap_predictions.tolist(),
            "settling": [seen[name][1] for seen in settling],
            "settling_predictions": [seen[name][0] for seen in settling],
        }
    return examples


def build(config: LectureConfig) -> dict[str, Any]:
    """Train, run the examples and every probe, and return the data file's content."""
    start = time.perf_counter()
    # The four-head run trains in a forked second process while this one does the rest (one
    # core each, one thread each: the same numbers as in one process). It holds no copy of
    # the output folder's lock and dies with this one (common/processes.py): a killed
    # render.py leaves no trainer and no lock behind.
    pool = ProcessPoolExecutor(
        1, mp_context=child_context(), initializer=die_with_parent, initargs=(os.getpid(),)
    )
    with pool:
        four_heads = pool.submit(multihead.heads_run, config, 4)
        contents = _build(config)
        contents["multihead.four"] = four_heads.result()
    header = {
        "schema_version": SCHEMA_VERSION,
        "source_hash": model_source_hash(),
        "config": config.to_dict(),
    }
    data = nest(header, contents)
    data["run_ms"] = (time.perf_counter() - start) * 1000
    return data


def walkthrough_parts(config: LectureConfig, sentence: Walkthrough) -> dict[str, Any]:
    """The parts made from a walkthrough sentence (:data:`OWN_PARTS`), by their paths."""
    return {
        "tokens.eat_apple": handmade.eat_apple(sentence),
        "pitfalls.shuffle": probes.shuffle_probe(config, sentence),
        "positional": probes.positional_table(sentence),
    }


def _build(config: LectureConfig) -> dict[str, Any]:
    """Every part but the four-head run."""
    # The head as training finds it: the same seeded draw ``train`` starts from.
    seed_weights(config, Stream.TRAIN_INIT)
    start = SelfAttention(d_in=len(config.colours) + 1, d=config.d)
    steps = settling_steps(config.steps)
    maps = example_maps(config)
    result = train(config, watch=lambda m: (maps(m), _matrix(m.w_q)), at=steps)
    model = result.model
    seen, w_q_settling = zip(*result.watched, strict=True)  # the maps; W_Q at each step
    return {
        "training": {
            **result.summary(),
            "val_size": config.val_size,
            "settling_steps": steps,
        },
        "weights": {
            "w_q": _matrix(model.w_q),
            "w_k": _matrix(model.w_k),
            "w_v": _matrix(model.w_v),
            "w_q_start": _matrix(start.w_q),
            "w_q_settling": [*w_q_settling, _matrix(model.w_q)],
            "readout_w": model.readout.weight.detach()[0].tolist(),
            "readout_b": model.readout.bias.detach()[0].item(),
        },
        "examples": run_examples(config, result, list(seen)),
        "pitfalls.projection": probes.projection_probe(config),
        "pitfalls.sqrt_d": probes.sqrt_d_probe(config),
        **walkthrough_parts(config, config.walkthrough),
        "own": {
            lang: walkthrough_parts(config, sentence)
            for lang, sentence in config.walkthroughs.items()
        },
        "tokens.it_cat": handmade.it_cat(config.pronoun),
        "office": handmade.office(config.office),
        "causal": causal.causal_run(config),
        "multihead.two": multihead.heads_run(config, 2),
        "multihead.bookkeeping": multihead.bookkeeping(),
        "dead_ends": dead_ends(),
    }
