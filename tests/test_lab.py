"""The lab: every claim of the seeds, reproduced by our own run and stated as an assertion.

Each test reads the data file through the loader (what the scenes will see) and checks
both the claim and the internal consistency of the numbers shown: weights are the softmax
of the shown scores, outputs are the weights times the shown values, rows sum to 1.
"""

from __future__ import annotations

import math
from itertools import pairwise
from pathlib import Path

import pytest

from model.datafile import LectureData
from model.parts import AttentionRows


@pytest.fixture(scope="session")
def data(data_file: Path) -> LectureData:
    return LectureData.from_file(data_file)


def softmax(scores: list[float | None]) -> list[float]:
    live = [s for s in scores if s is not None]
    top = max(live)
    exps = [0.0 if s is None else math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def assert_consistent(rows: AttentionRows, q, k, v, scale: float, causal: bool = False) -> None:
    """Shown scores = q.k / scale, weights = softmax(scores), outputs = weights . V."""
    assert rows.scale == pytest.approx(scale)
    for i, (s_row, w_row, out) in enumerate(
        zip(rows.scores, rows.weights, rows.outputs, strict=True)
    ):
        for j, s in enumerate(s_row):
            if causal and j > i:
                assert s is None and w_row[j] == 0
            else:
                assert s == pytest.approx(dot(q[i], k[j]) / scale, abs=1e-12)
        assert w_row == pytest.approx(softmax(list(s_row)), abs=1e-12)
        exps = rows.exps[i]
        live = [e for e in exps if e is not None]
        assert [None if s is None else math.exp(s) for s in s_row] == pytest.approx(list(exps))
        assert [(e or 0) / sum(live) for e in exps] == pytest.approx(list(w_row), abs=1e-12)
        assert sum(w_row) == pytest.approx(1, abs=1e-12)
        expected = [sum(w * v[j][c] for j, w in enumerate(w_row)) for c in range(len(v[0]))]
        assert out == pytest.approx(expected, abs=1e-12)


# --- colour task -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "shares"),
    [
        ("all_same", {0: 1 / 8}),
        ("halves", {0: 1 / 4, 2: 1 / 4}),
        ("one_two_rest", {0: 1.0, 1: 1 / 2, 2: 1 / 5}),
        ("pairs_and_rest", {0: 1 / 2, 1: 1 / 2, 2: 1 / 4}),
    ],
)
def test_named_patterns_split_by_group_size(data: LectureData, name: str, shares: dict) -> None:
    ex = data.example(name)
    for i, row in enumerate(ex.attention):
        share = shares[ex.colours[i]]
        for j, w in enumerate(row):
            assert w == pytest.approx(share if ex.colours[j] == ex.colours[i] else 0, abs=0.05)


def test_scores_explain_the_equal_shares(data: LectureData) -> None:
    """The learned scores: same colour high and (nearly) equal, other colours far lower;
    the attention is their softmax."""
    ex = data.example("mixed")
    for i, row in enumerate(ex.scores):
        exps = [math.exp(s) for s in row]
        assert [e / sum(exps) for e in exps] == pytest.approx(list(ex.attention[i]), abs=1e-6)
        same = [s for s, c in zip(row, ex.colours, strict=True) if c == ex.colours[i]]
        other = [s for s, c in zip(row, ex.colours, strict=True) if c != ex.colours[i]]
        assert max(same) - min(same) < 0.1  # equal scores -> equal shares
        assert min(same) - max(other) > 4  # e^4: other colours get under 2% each


def test_seed_numbers_appear_as_group_shares(data: LectureData) -> None:
    """Seed 000's 0.13, 0.25, 0.50, 0.99 are 1/8, 1/4, 1/2, 1/1: all four appear."""
    cells = [w for ex in data.examples.values() for row in ex.attention for w in row]
    for share in (1 / 8, 1 / 4, 1 / 2, 1.0):
        assert any(abs(w - share) < 0.02 for w in cells), share


def test_random_and_listed_patterns(data: LectureData) -> None:
    randoms = [name for name in data.examples if name.startswith("random_")]
    assert len(randoms) == 3
    assert len({data.example(n).pattern for n in randoms}) == 3


def test_instructor_pattern_is_run(tmp_path: Path) -> None:
    from model.config import LectureConfig
    from model.lab import build

    config = LectureConfig.from_dict({"examples": {"mine": "GGGGGGGB"}})
    ex = build(config)["examples"]["mine"]
    assert ex["pattern"] == "GGGGGGGB"
    assert ex["attention"][7][7] == pytest.approx(1.0, abs=0.05)
    assert ex["attention"][0][0] == pytest.approx(1 / 7, abs=0.05)


# --- pitfall 1: why project ------------------------------------------------------------
def test_without_projection_every_word_looks_at_itself(data: LectureData) -> None:
    p = data.projection
    assert (p.draws, p.positions, p.width) == (200, 8, 64)
    assert p.plain.min > 0.95 and p.plain.mean > 0.97  # seed: never below 0.97
    assert 0.08 < p.projected.mean < 0.2  # seed: mean 0.13, about 1/8
    assert p.projected.max < 0.5 and p.projected.min < p.uniform_share
    for example, value in (
        (p.example.plain, p.plain.values[0]),
        (p.example.projected, p.projected.values[0]),
    ):
        assert sum(example[i][i] for i in range(8)) / 8 == pytest.approx(value, abs=1e-12)
    assert all(row[i] == max(row) for i, row in enumerate(p.example.plain))


def test_one_matrix_for_both_roles_keeps_the_diagonal(data: LectureData) -> None:
    """With W_Q = W_K the score of x with itself is |xW|^2 >= 0: the diagonal stays bright;
    it is two different random matrices that take the privilege away."""
    e = data.projection.example
    shared = sum(e.shared[i][i] for i in range(8)) / 8
    projected = sum(e.projected[i][i] for i in range(8)) / 8
    assert shared > 0.5 > projected * 3


# --- pitfall 2: sqrt(d) ----------------------------------------------------------------
def test_the_spread_of_scores_grows_like_sqrt_d(data: LectureData) -> None:
    for row in data.sqrt_d.dims:
        assert row.spread_unscaled / math.sqrt(row.d) == pytest.approx(1, abs=0.15), row.d
        assert row.spread_scaled == pytest.approx(row.spread_unscaled / math.sqrt(row.d))


def test_unscaled_softmax_saturates_as_d_grows(data: LectureData) -> None:
    probe = data.sqrt_d
    assert [row.d for row in probe.dims] == [4, 8, 16, 32, 64, 128, 256, 512]
    assert probe.draws == 64
    unscaled = [row.mean_max_unscaled for row in probe.dims]
    scaled = [row.mean_max_scaled for row in probe.dims]
    assert unscaled[-1] > 0.9 and unscaled[0] < 0.7
    assert sum(unscaled[4:]) > sum(unscaled[:4])  # the trend, over sampling noise
    assert all(0.25 < s < 0.45 for s in scaled)  # calm at every width
    assert all(u > s for u, s in zip(unscaled, scaled, strict=True))
    for row in probe.dims:
        assert list(row.example_unscaled) == pytest.approx(softmax(list(row.example_scores)))
        assert list(row.example_scaled) == pytest.approx(
            softmax([s / math.sqrt(row.d) for s in row.example_scores])
        )


def test_the_widest_draw_rescaled_flattens_and_sharpens(data: LectureData) -> None:
    """The summary's knob turns the d = 512 draw by the factors it turns the arrow and T by:
    each stop is that draw's softmax(scores / √d × factor), flatter below 1, sharper above."""
    probe = data.sqrt_d
    widest = probe.dims[-1]
    assert [stop.factor for stop in probe.rescaled] == [0.125, 0.25, 0.5, 1.0, 2.0, 4.0]
    middle = max(widest.example_scaled)
    for stop in probe.rescaled:
        scaled = [s / math.sqrt(widest.d) * stop.factor for s in widest.example_scores]
        assert list(stop.weights) == pytest.approx(softmax(scaled))
        assert stop.divisor == pytest.approx(math.sqrt(widest.d) / stop.factor)
        if stop.factor == 1:
            assert list(stop.weights) == pytest.approx(list(widest.example_scaled))
        else:
            assert (max(stop.weights) < middle) == (stop.factor < 1), stop.factor
    flattest = probe.rescaled[0].weights
    assert max(flattest) - min(flattest) < 0.05, "the small stop is not near an even split"


# --- pitfall 3: shuffle, and positional encoding ---------------------------------------
def test_attention_is_permutation_equivariant(data: LectureData) -> None:
    s = data.shuffle
    run = s.without_positions
    assert run.max_abs_diff <= 1e-12
    assert list(run.shuffled_out) == [run.out[p] for p in s.permutation]
    assert s.permutation != list(range(len(s.permutation)))
    # every word's output differs, so the eye can follow each one as it moves
    assert len({tuple(round(v, 2) for v in row) for row in run.out}) == len(run.out)


def test_positions_break_the_equivariance(data: LectureData) -> None:
    run = data.shuffle.with_positions
    assert run.max_abs_diff > 1e-3


def test_the_probe_keeps_the_rows_it_fed(data: LectureData) -> None:
    """With positions, the rows fed in are each word's vector plus its place's row of the
    table: in the sentence's order, and shuffled (word permutation[i] at place i, row i)."""
    s, x, table = data.shuffle, data.eat_apple.x, data.positional.table
    run = s.with_positions
    for i, j in enumerate(s.permutation):
        own, moved = ([a + b for a, b in zip(x[w], table[i], strict=True)] for w in (i, j))
        assert run.inputs[i] == pytest.approx(own, abs=1e-12)
        assert run.inputs_of_shuffled[i] == pytest.approx(moved, abs=1e-12)
    assert run.inputs_of_shuffled != [run.inputs[j] for j in s.permutation]  # the places differ


def test_sinusoidal_table(data: LectureData) -> None:
    pe = data.positional
    # The table drawn is the one the shuffle probe adds: a row per word, as wide as its vectors.
    walk = data.config.walkthrough
    assert (pe.positions, pe.width) == (len(walk.x), len(walk.x[0]))
    for p, row in enumerate(pe.table):
        for i in range(0, pe.width, 2):
            angle = p / pe.base ** (i / pe.width)
            assert row[i] == pytest.approx(math.sin(angle), abs=1e-12)
            assert row[i + 1] == pytest.approx(math.cos(angle), abs=1e-12)
    distances = [math.dist(a, b) for i, a in enumerate(pe.table) for b in pe.table[i + 1 :]]
    assert min(distances) > 0.1  # every position's fingerprint is its own

    def change(col: int) -> float:
        return sum(abs(pe.table[p + 1][col] - pe.table[p][col]) for p in range(pe.positions - 1))

    assert change(0) > change(pe.width - 2) * 10  # left: fast; right: slow


def test_a_languages_own_sentence_stands_at_the_usual_paths(data: LectureData) -> None:
    """English follows its own walkthrough (the built-in lecture file's
    [task.walkthroughs.en]): every part made from it, at the paths the scenes name, computed
    from its own vectors; Chinese keeps the lecture's, and a language without one gets it."""
    own = data.config.walkthroughs["en"]
    en = data.in_language("en")
    assert en.eat_apple.tokens == own.tokens != data.eat_apple.tokens
    assert en.value("tokens.eat_apple.x") == own.x
    e = en.eat_apple
    q = e.q[e.query_index]
    assert list(e.dots) == pytest.approx([dot(q, e.k[j]) for j in range(e.short)], abs=1e-12)
    assert_consistent(e.last_row, [q], e.k[: e.short], e.v[: e.short], math.sqrt(e.d))
    assert en.shuffle.tokens == own.tokens and en.positional.positions == len(own.x)
    assert en.shuffle.without_positions.max_abs_diff <= 1e-12
    assert data.in_language("zh-TW") is data and data.in_language("fr") is data
    assert data.raw["tokens"]["eat_apple"]["tokens"] == data.eat_apple.tokens  # kept as read


# --- hand-made tokens -----------------------------------------------------------------
def test_eat_apple_last_row_step_by_step(data: LectureData) -> None:
    e = data.eat_apple
    assert e.tokens[: e.short] == ["我", "吃", "蘋果"] and e.query_index == 2
    q = e.q[e.query_index]
    assert list(e.dots) == pytest.approx([dot(q, e.k[j]) for j in range(e.short)], abs=1e-12)
    assert [sum(p) for p in e.products] == pytest.approx(list(e.dots), abs=1e-12)
    assert_consistent(e.last_row, [q], e.k[: e.short], e.v[: e.short], math.sqrt(e.d))
    weights = e.last_row.weights[0]
    assert weights.index(max(weights)) == 1 == e.target  # 蘋果 looks most at 吃
    assert weights[2] > weights[0]  # and keeps some of itself


def test_eat_apple_roles_are_projections_of_x(data: LectureData) -> None:
    e = data.eat_apple

    def matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
        return [[dot(row, [b[r][c] for r in range(len(b))]) for c in range(len(b[0]))] for row in a]

    for role in ("q", "k", "v"):
        projected = matmul(e.x, getattr(e, f"w_{role}"))
        assert [list(r) for r in getattr(e, role)] == [pytest.approx(r) for r in projected]
    assert e.w_q != e.w_k  # two different matrices: no built-in self-preference
    apple = e.x[e.query_index]
    added = [a + o for a, o in zip(apple, e.last_row.outputs[0], strict=True)]
    assert list(e.residual) == pytest.approx(added)
    output = e.last_row.outputs[0]
    assert output.index(max(output)) == 1  # the attention output of 蘋果 is mostly "eating"


def test_eat_apple_full_map_and_weighted_sum(data: LectureData) -> None:
    e = data.eat_apple
    n = e.short
    assert_consistent(e.short_full, e.q[:n], e.k[:n], e.v[:n], math.sqrt(e.d))
    assert list(e.short_full.weights[e.query_index]) == pytest.approx(list(e.last_row.weights[0]))
    weights = e.last_row.weights[0]
    for j, term in enumerate(e.contributions):
        assert list(term) == pytest.approx([weights[j] * x for x in e.v[j]], abs=1e-12)
    total = [sum(t[c] for t in e.contributions) for c in range(e.d)]
    assert total == pytest.approx(list(e.last_row.outputs[0]), abs=1e-12)


def test_eat_apple_causal_mask(data: LectureData) -> None:
    e = data.eat_apple
    assert len(e.tokens) == 5
    assert_consistent(e.causal, e.q, e.k, e.v, math.sqrt(e.d), causal=True)
    assert e.causal.weights[0][0] == 1.0  # the first word can only see itself
    row = e.causal.weights[e.query_index]
    assert list(row[: e.short]) == pytest.approx(list(e.last_row.weights[0]), abs=1e-12)


def test_it_cat_with_and_without_sqrt_d(data: LectureData) -> None:
    c = data.it_cat
    it, cat = c.tokens.index("it"), c.tokens.index("cat")
    assert c.query_index == it and c.referent == cat  # the referent is computed
    assert c.d == 4
    assert_consistent(c.scaled, c.q, c.k, c.v, 2.0)
    assert_consistent(c.unscaled, c.q, c.k, c.v, 1.0)
    assert c.scaled.weights[it][cat] == pytest.approx(0.83, abs=0.03)
    assert c.unscaled.weights[it][cat] == pytest.approx(0.99, abs=0.01)
    for word in ("it", "scared", "hid"):
        row = c.scaled.weights[c.tokens.index(word)]
        assert row.index(max(row)) == cat, word


def test_it_output_is_mostly_cat(data: LectureData) -> None:
    c = data.it_cat
    it, cat = c.query_index, c.referent
    assert c.query_index == it
    terms = c.contributions
    total = [sum(t[col] for t in terms) for col in range(c.d)]
    assert total == pytest.approx(list(c.scaled.outputs[it]), abs=1e-12)
    assert list(terms[cat]) == pytest.approx([c.scaled.weights[it][cat] * x for x in c.v[cat]])
    assert total.index(max(total)) == 0  # the ENTITY axis dominates "it"'s new vector


def test_it_cat_temperature(data: LectureData) -> None:
    c = data.it_cat
    it, cat = c.query_index, c.referent
    temps = c.temperatures
    assert [t.t for t in temps] == sorted(t.t for t in temps) and 1.0 in [t.t for t in temps]
    for t in temps:
        assert_consistent(t, c.q, c.k, c.v, math.sqrt(c.d) * t.t)
    shares = [t.weights[it][cat] for t in temps]
    assert all(a > b for a, b in pairwise(shares))  # hotter, flatter
    assert shares[0] > 0.99  # staring at one
    hot = temps[-1].weights[it]
    assert max(hot) - min(hot) < 0.15  # looking at all nearly evenly


# --- the office -----------------------------------------------------------------------
def test_office_weights_and_average(data: LectureData) -> None:
    o = data.office
    assert len(o.people) == 5
    for stop in o.sweep + o.grow:
        assert stop.query == pytest.approx(
            [
                stop.length * math.cos(math.radians(stop.angle)),
                stop.length * math.sin(math.radians(stop.angle)),
            ]
        )
        scores = [dot(stop.query, k) / o.scale for k in o.keys]
        assert list(stop.scores) == pytest.approx(scores, abs=1e-12)
        assert list(stop.weights) == pytest.approx(softmax(scores), abs=1e-12)
        assert stop.output == pytest.approx(dot(stop.weights, o.values), abs=1e-12)
        assert min(o.values) < stop.output < max(o.values)
    assert len({stop.weights.index(max(stop.weights)) for stop in o.sweep}) >= 4


def test_longer_query_concentrates(data: LectureData) -> None:
    grow = data.office.grow
    assert len({stop.angle for stop in grow}) == 1
    tops = [max(stop.weights) for stop in grow]
    assert all(a < b for a, b in pairwise(tops))
    assert tops[-1] > 0.85 and tops[0] < 0.5
    assert all(stop.weights.index(max(stop.weights)) == 0 for stop in grow)


# --- multi-head -----------------------------------------------------------------------
def test_causal_map_is_the_colour_blocks_cut_to_a_triangle(data: LectureData) -> None:
    """Row i splits 1/k_i over the k_i same-coloured positions up to i; nothing after i."""
    c = data.causal
    assert c.val_mse < 0.02 * c.baseline_mse, "the causal run did not learn"
    for i, row in enumerate(c.attention):
        so_far = [j for j in range(i + 1) if c.colours[j] == c.colours[i]]
        for j, w in enumerate(row):
            expected = 1 / len(so_far) if j in so_far else 0
            assert w == pytest.approx(expected, abs=0.05), (i, j)


def test_two_heads_learn_two_different_rules(data: LectureData) -> None:
    t = data.two_heads
    assert t.val_mse < 0.05 * t.baseline_mse, "the two-head run did not learn"
    colour = max(range(2), key=lambda h: t.colour_match[h])
    previous = 1 - colour
    assert t.colour_match[colour] > 0.9, f"no head learned the colour blocks: {t.colour_match}"
    assert t.previous_match[previous] > 0.9, f"no head learned one-to-the-left: {t.previous_match}"
    assert t.similarity[0][1] < 0.3  # two different maps


def test_four_heads_cover_both_rules_with_redundancy(data: LectureData) -> None:
    f = data.four_heads
    assert f.val_mse < 0.05 * f.baseline_mse, "the four-head run did not learn"
    assert max(f.colour_match) > 0.9 and max(f.previous_match) > 0.9
    named = [h for h in range(4) if max(f.colour_match[h], f.previous_match[h]) > 0.9]
    assert len(named) < 4, "every head learned a clean rule: the lecture says some do not"
    others = [f.similarity[a][b] for a in range(4) for b in range(4) if a != b]
    assert max(others) > 0.3, "no two heads overlap: the lecture shows redundant heads"


def test_silencing_a_trained_head_raises_the_loss(data: LectureData) -> None:
    """The lecture takes one of the two most alike heads away and shows the loss rise."""
    for run in (data.two_heads, data.four_heads):
        assert len(run.ablated_mse) == run.heads
        assert all(mse > run.val_mse for mse in run.ablated_mse), run.ablated_mse
    f = data.four_heads
    pair = max(
        ((a, b) for a in range(4) for b in range(a + 1, 4)), key=lambda p: f.similarity[p[0]][p[1]]
    )
    assert f.ablated_mse[pair[1]] > 10 * f.val_mse, "the removed head was redundant after all"


def test_width_bookkeeping(data: LectureData) -> None:
    b = data.bookkeeping
    assert (b.width, b.heads, b.d_head) == (4096, 32, 128)
    assert b.slices[0] == [0, 127] and b.slices[1] == [128, 255] and b.slices[-1] == [3968, 4095]
    assert b.projection_params == 4096 * 4096 and b.per_head_params * 32 == b.projection_params


# --- the run --------------------------------------------------------------------------
def _without_timings(data: object) -> object:
    """The data file without its wall-clock times (every run_ms and train_ms)."""
    if isinstance(data, dict):
        return {k: _without_timings(v) for k, v in data.items() if k not in ("run_ms", "train_ms")}
    return [_without_timings(v) for v in data] if isinstance(data, list) else data


def test_the_whole_run_is_deterministic(built: dict) -> None:
    from model.config import LectureConfig
    from model.lab import build

    assert built["run_ms"] > built["training"]["train_ms"] > 0
    assert _without_timings(build(LectureConfig())) == _without_timings(built)
