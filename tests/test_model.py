"""The model really learns the colour task, and its attention is what we claim."""

from __future__ import annotations

import math

import pytest
import torch

from model.attention import MultiHeadAttention, SelfAttention
from model.config import LectureConfig
from model.task import encode, sample_batch, targets_for
from model.train import train


def test_targets_are_same_colour_means() -> None:
    colours = torch.tensor([[0, 1, 0, 2, 1, 0]])
    values = torch.tensor([[1.0, 2.0, 4.0, 8.0, 6.0, 7.0]])
    expected = torch.tensor([[4.0, 4.0, 4.0, 8.0, 4.0, 4.0]])
    assert torch.equal(targets_for(colours, values), expected)


def test_encode_is_onehot_then_value() -> None:
    x = encode(torch.tensor([[2, 0]]), torch.tensor([[0.5, -1.0]]), 3)
    assert x.tolist() == [[[0.0, 0.0, 1.0, 0.5], [1.0, 0.0, 0.0, -1.0]]]


@pytest.mark.parametrize("d", [1, 4, 16])
def test_attention_matches_scaled_dot_product_attention(d: int) -> None:
    torch.manual_seed(d)
    module = SelfAttention(d_in=5, d=d).double()
    x = torch.randn(3, 7, 5, dtype=torch.float64)  # (B, n, d_in)
    z, weights = module.attend(x)
    q, k, v = module.w_q(x), module.w_k(x), module.w_v(x)
    reference = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    assert z.shape == (3, 7, d) and weights.shape == (3, 7, 7)
    torch.testing.assert_close(z, reference, rtol=0, atol=1e-12)
    torch.testing.assert_close(weights.sum(-1), torch.ones(3, 7, dtype=torch.float64))


def test_causal_attention_matches_scaled_dot_product_attention() -> None:
    torch.manual_seed(1)
    module = SelfAttention(d_in=5, d=4, causal=True).double()
    x = torch.randn(2, 6, 5, dtype=torch.float64)  # (B, n, d_in)
    z, weights = module.attend(x)
    q, k, v = module.w_q(x), module.w_k(x), module.w_v(x)
    reference = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(z, reference, rtol=0, atol=1e-12)
    assert torch.all(torch.triu(weights, diagonal=1) == 0)  # nothing after the query


def test_multi_head_matches_scaled_dot_product_attention() -> None:
    torch.manual_seed(2)
    module = MultiHeadAttention(d_in=5, heads=3, d_head=4, d_out=2).double()
    x = torch.randn(2, 6, 5, dtype=torch.float64)  # (B, n, d_in)
    heads, maps = module.attend(x)

    def split(m: torch.Tensor) -> torch.Tensor:  # (B, n, 12) -> (B, 3, n, 4)
        return m.view(2, 6, 3, 4).transpose(1, 2)

    q, k, v = (split(w(x)) for w in (module.w_q, module.w_k, module.w_v))
    reference = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    torch.testing.assert_close(heads, reference, rtol=0, atol=1e-12)
    out, _ = module(x)
    concat = reference.transpose(1, 2).reshape(2, 6, 12)
    torch.testing.assert_close(out, module.readout(module.w_o(concat)), rtol=0, atol=1e-12)
    assert maps.shape == (2, 3, 6, 6)


def test_ablated_mse_is_the_validation_loss_with_that_head_silenced(config: LectureConfig) -> None:
    """Zeroing a head's output is the same as zeroing its slice of W_V; the loss is taken on
    the validation set ``val_mse`` uses."""
    import copy

    from model.multihead import POSITION_WIDTH, ablated_mse, heads_task
    from model.streams import Stream
    from model.train import generator

    torch.manual_seed(3)
    d_in = len(config.colours) + 1 + POSITION_WIDTH
    module = MultiHeadAttention(d_in, heads=4, d_head=2, d_out=2)
    inputs, targets = heads_task(config)(
        config.val_size, generator(config, Stream.HEADS_VALIDATION)
    )
    expected = []
    for h in range(4):
        silenced = copy.deepcopy(module)
        with torch.no_grad():
            silenced.w_v.weight[h * 2 : (h + 1) * 2] = 0  # head h hands over nothing
            out, _ = silenced(inputs)
        expected.append(torch.mean((out - targets) ** 2).item())
    assert ablated_mse(config, module) == pytest.approx(expected, rel=1e-5)


def test_it_learns(built: dict) -> None:
    tr = built["training"]
    assert tr["val_size"] == 256
    assert tr["val_mse"] < 0.02 * tr["baseline_mse"]
    assert tr["loss_curve"][-1] < 0.05 * tr["loss_curve"][0]
    assert tr["train_ms"] > 0 and len(tr["loss_curve"]) == tr["steps"]


def test_attention_splits_one_over_k(built: dict) -> None:
    """Every row of every example: 1/k on each of the k same-colour positions, ~0 elsewhere."""
    for name, ex in built["examples"].items():
        colours = ex["colours"]
        for i, row in enumerate(ex["attention"]):
            k = colours.count(colours[i])
            for j, w in enumerate(row):
                if colours[j] == colours[i]:
                    assert abs(w - 1 / k) < 0.05, (name, i, j, w, k)
                else:
                    assert w < 0.01, (name, i, j, w)


def test_predictions_match_targets(built: dict) -> None:
    for ex in built["examples"].values():
        for p, t in zip(ex["predictions"], ex["targets"], strict=True):
            assert abs(p - t) < 0.05


def test_untrained_model_does_not_split(config: LectureConfig) -> None:
    """The 1/k test can fail: a model trained for one step does not pass it."""
    result = train(LectureConfig(steps=1))
    batch = sample_batch(1, config.positions, 3, torch.Generator().manual_seed(5))
    _, weights = result.model(encode(batch.colours, batch.values, 3))
    colours = batch.colours[0].tolist()
    errors = [
        abs(
            weights[0, i, j].item()
            - (1 / colours.count(colours[i]) if colours[j] == colours[i] else 0)
        )
        for i in range(config.positions)
        for j in range(config.positions)
    ]
    assert max(errors) > 0.05
    assert result.val_mse > 0.02 * result.baseline_mse


def test_training_is_deterministic() -> None:
    """Same config, same run; watching it (the settling maps) changes nothing in it."""
    config = LectureConfig(steps=50)
    a = train(config, watch=lambda model: model.w_q.weight.clone(), at=(0, 10))
    b = train(config)
    assert len(a.watched) == 2 and not torch.equal(*a.watched)
    assert a.loss_curve == b.loss_curve
    for pa, pb in zip(a.model.parameters(), b.model.parameters(), strict=True):
        assert torch.equal(pa, pb)
    c = train(LectureConfig(steps=50, seed=1))
    assert c.loss_curve != a.loss_curve


def test_stored_weights_reproduce_stored_attention(built: dict) -> None:
    """The matrices in the data file are the ones that made the examples' attention."""
    w = built["weights"]
    wq, wk = torch.tensor(w["w_q"]), torch.tensor(w["w_k"])
    d = wq.shape[1]
    for ex in built["examples"].values():
        x = encode(torch.tensor([ex["colours"]]), torch.tensor([ex["values"]]), 3)[0]
        scores = (x @ wq) @ (x @ wk).T / math.sqrt(d)
        torch.testing.assert_close(
            torch.softmax(scores, -1), torch.tensor(ex["attention"]), atol=1e-6, rtol=0
        )


def test_random_streams_neither_overflow_nor_collide() -> None:
    """Every (seed, stream) pair has its own seed, and the largest fits torch's 64 bits
    (seed * 1000 + 42 once served both a head's weights and its examples, and a seed near
    2**63 crashed training)."""
    from model.streams import MAX_SEED, Stream, stream_seed

    seeds = [0, 1, 2, 999, MAX_SEED - 1, MAX_SEED]
    made = [stream_seed(seed, stream) for seed in seeds for stream in Stream]
    assert len(set(made)) == len(made)
    torch.Generator().manual_seed(max(made))  # no "Overflow when unpacking long long"
    with pytest.raises(ValueError, match="seed must be"):
        stream_seed(MAX_SEED + 1, Stream.TRAIN_INIT)


def test_settling_starts_untrained_and_ends_learned(config: LectureConfig, built: dict) -> None:
    """The first settling map is the untrained head's (the seeded draw training starts
    from), and the maps close in on the learned one as the steps go on."""
    from model.lab import example_inputs
    from model.streams import Stream
    from model.train import seed_weights

    seed_weights(config, Stream.TRAIN_INIT)
    start = SelfAttention(d_in=len(config.colours) + 1, d=config.d)
    _, colours, values = example_inputs(config)["mixed"]
    with torch.no_grad():
        _, untrained = start(encode(colours, values, len(config.colours)))
    mixed = built["examples"]["mixed"]
    assert torch.allclose(untrained[0], torch.tensor(mixed["settling"][0]), atol=1e-6)
    learned = torch.tensor(mixed["attention"])
    gaps = [(torch.tensor(m) - learned).abs().max().item() for m in mixed["settling"]]
    assert gaps[0] > 0.2 and gaps[-1] < gaps[0] / 10
    assert len(gaps) == len(built["training"]["settling_steps"])


def test_w_q_settling_starts_seeded_and_ends_trained(built: dict) -> None:
    """W_Q as training changed it: the seeded draw before step 0, one matrix per settling
    step, and the trained W_Q after the last step."""
    w = built["weights"]
    snapshots = w["w_q_settling"]
    assert len(snapshots) == len(built["training"]["settling_steps"]) + 1
    assert snapshots[0] == w["w_q_start"]
    assert snapshots[-1] == w["w_q"]
    assert snapshots[1] != snapshots[0]  # the first steps moved it
