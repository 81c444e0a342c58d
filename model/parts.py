"""The data file's parts, each a pydantic model that states its shape once.

Each part checks what its numbers promise (shapes agree, weights are rows summing to 1,
masked scores have zero weight, summaries agree with their values, no NaN). Sizes that
come from the configuration (positions, colours, the head width) arrive in the validation
context. The registry of parts, their paths in the file and their names is
:data:`model.datafile.PARTS`. Imports no torch.
"""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import RootModel, ValidationInfo, model_validator

from common.schema import (
    LANGUAGE_CODE,
    MaskedMatrix,
    Matrix,
    NonEmpty,
    Number,
    Shape,
    ShapeError,
    Vector,
    context_value,
    need_distribution,
    need_length,
    need_matrix,
    need_stochastic,
)
from model.sentences import Names, OtherSense


class Run(Shape):
    """A training run, measured: steps, the loss at each, time, and validation."""

    steps: int
    loss_curve: Vector
    train_ms: Number
    val_mse: Number
    baseline_mse: Number

    @model_validator(mode="after")
    def _check_run(self) -> Self:
        if len(self.loss_curve) != self.steps:
            raise ShapeError(
                "loss_curve", f"has {len(self.loss_curve)} points for {self.steps} steps"
            )
        return self


class Training(Run):
    """How the model was trained and how well it learned."""

    val_size: int
    settling_steps: list[int]  # steps at which each example's map was watched (0: untrained)

    @model_validator(mode="after")
    def _check_settling(self) -> Self:
        steps = self.settling_steps
        if not steps or steps != sorted(set(steps)) or steps[0] != 0 or steps[-1] >= self.steps:
            raise ShapeError(
                "settling_steps", f"must rise from 0 and stay under {self.steps}: {steps}"
            )
        return self


class Weights(Shape):
    """The learned matrices, in the X W convention (W_Q is d_in x d)."""

    w_q: Matrix
    w_k: Matrix
    w_v: Matrix
    w_q_start: Matrix  # w_q before training: the seeded random draw it starts from
    # w_q before each of training.settling_steps, then after the last step (w_q again)
    w_q_settling: list[Matrix]
    readout_w: Vector
    readout_b: Number

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Self:
        d_in, d = context_value(info, "colours") + 1, context_value(info, "d")
        for key in ("w_q", "w_k", "w_v", "w_q_start"):
            need_matrix(key, getattr(self, key), d_in, d)
        if len(self.w_q_settling) < 2:
            raise ShapeError("w_q_settling", "needs the start and the trained W_Q at least")
        for k, w in enumerate(self.w_q_settling):
            need_matrix(f"w_q_settling[{k}]", w, d_in, d)
        need_length("readout_w", self.readout_w, d)
        return self


class Example(Shape):
    """One named colour pattern run through the trained model."""

    pattern: str
    colours: list[int]
    values: Vector
    targets: Vector
    predictions: Vector
    attention: Matrix
    scores: Matrix  # before the softmax: attention is softmax of each row
    v: Matrix  # (n, d): each position's V, x W_V
    head_out: Matrix  # (n, d): attention @ v, what the readout reads
    swap_attention: Matrix  # (n, n): per row, other weights giving the same prediction
    swap_predictions: Vector  # the readout of swap_attention @ v: predictions again
    settling: list[Matrix]  # (steps, n, n): the map at each of training.settling_steps
    settling_predictions: list[Vector]  # (steps, n): the outputs at each of those steps

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Self:
        n, k = context_value(info, "positions"), context_value(info, "colours")
        for key in ("colours", "values", "targets", "predictions"):
            need_length(key, getattr(self, key), n)
        if any(not 0 <= c < k for c in self.colours):
            raise ShapeError("colours", f"must be colour indices 0..{k - 1}")
        need_stochastic("attention", self.attention, n, n)
        need_matrix("scores", self.scores, n, n)
        d = len(self.v[0]) if self.v else 0
        need_matrix("v", self.v, n, d)
        need_matrix("head_out", self.head_out, n, d)
        need_stochastic("swap_attention", self.swap_attention, n, n)
        need_length("swap_predictions", self.swap_predictions, n)
        for k, weights in enumerate(self.settling):
            need_stochastic(f"settling[{k}]", weights, n, n)
        if len(self.settling_predictions) != len(self.settling):
            raise ShapeError("settling_predictions", "needs one row per settling map")
        for k, outputs in enumerate(self.settling_predictions):
            need_length(f"settling_predictions[{k}]", outputs, n)
        return self

    @property
    def n(self) -> int:
        return len(self.colours)


class Examples(RootModel[dict[str, Example]]):
    """The named examples, by name."""

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not self.root:
            raise ValueError("is empty")
        return self


class ShareSummary(Shape):
    """Per-draw values with their min, max and mean."""

    values: Vector
    min: Number
    max: Number
    mean: Number

    @model_validator(mode="after")
    def _check(self) -> Self:
        if (self.min, self.max) != (min(self.values), max(self.values)):
            raise ShapeError("min", "and 'max' disagree with 'values'")
        if abs(self.mean - sum(self.values) / len(self.values)) > 1e-9:
            raise ShapeError("mean", "disagrees with 'values'")
        return self


class ProjectionExample(Shape):
    x: Matrix  # the draw's word vectors, positions x width (the rows of X)
    dots: Matrix  # X X^T: |x_i|^2 on the diagonal, x_i . x_j off it
    plain: Matrix
    shared_dots: Matrix  # (X W)(X W)^T, W_Q = W_K = W: |x_i W|^2 on the diagonal
    shared: Matrix  # W_Q = W_K: one random matrix for both roles
    projected_dots: Matrix  # (X W_Q)(X W_K)^T: two different random matrices
    projected: Matrix


class ProjectionProbe(Shape):
    """Pitfall 1: the share of attention each word gives itself, without/with W_Q, W_K."""

    draws: int
    positions: int
    width: int
    uniform_share: Number
    self_dot_mean: Number  # the mean of x_i . x_i over every draw: about the width
    cross_dot_std: Number  # the spread of x_i . x_j, i != j: about the width's square root
    plain: ShareSummary
    projected: ShareSummary
    example: ProjectionExample

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = self.positions
        for key in ("plain", "projected"):
            need_length(f"{key}.values", getattr(self, key).values, self.draws)
        for key in ("plain", "shared", "projected"):
            need_stochastic(f"example.{key}", getattr(self.example, key), n, n)
        return self


class SqrtDRow(Shape):
    """Pitfall 2 at one width d: mean largest weight over the draws, and one draw."""

    d: int
    mean_max_unscaled: Number
    mean_max_scaled: Number
    mean_slope_unscaled: Number  # mean of w (1 - w) over the draws' largest weights
    mean_slope_scaled: Number
    spread_unscaled: Number  # standard deviation of q.k over the draws and keys
    sqrt_d: Number
    spread_scaled: Number  # the same after the division by sqrt(d)
    example_scores: Vector
    example_unscaled: Vector
    example_scaled: Vector


class SqrtDRescaled(Shape):
    """The widest d's draw 0 at another scale: softmax(scores / sqrt(d) * factor)."""

    factor: Number
    divisor: Number  # sqrt(d) / factor: what the raw scores are divided by
    weights: Vector


class SqrtDProbe(Shape):
    """Pitfall 2: softmax saturates without the division by sqrt(d)."""

    draws: int
    positions: int
    dims: Annotated[list[SqrtDRow], NonEmpty]
    # the widest d's draw 0, its divided scores scaled again by each factor the knob turns
    rescaled: Annotated[list[SqrtDRescaled], NonEmpty]
    # q.k summed term by term for a few draws, to the widest d: walks[w][t] is the sum of
    # the first t + 1 products q_i k_i (a random walk whose spread grows like √t)
    walks: Annotated[list[Vector], NonEmpty]

    @model_validator(mode="after")
    def _check(self) -> Self:
        for i, row in enumerate(self.dims):
            need_length(f"dims.{i}.example_scores", row.example_scores, self.positions)
            need_distribution(f"dims.{i}.example_unscaled", row.example_unscaled)
            need_distribution(f"dims.{i}.example_scaled", row.example_scaled)
        widest = max(row.d for row in self.dims)
        for i, stop in enumerate(self.rescaled):
            need_length(f"rescaled.{i}.weights", stop.weights, self.positions)
            need_distribution(f"rescaled.{i}.weights", stop.weights)
            root = self.row(widest).sqrt_d
            if abs(stop.divisor * stop.factor - root) > 1e-6 * root:
                raise ShapeError(f"rescaled.{i}.divisor", f"times its factor is not √d = {root}")
        for i, walk in enumerate(self.walks):
            need_length(f"walks.{i}", walk, widest)
        return self

    def row(self, d: int) -> SqrtDRow:
        return next(row for row in self.dims if row.d == d)


class ShuffleRun(Shape):
    """out(shuffled input) against shuffled(out(input)): one output vector per word."""

    out: Matrix
    out_of_shuffled: Matrix
    shuffled_out: Matrix
    max_abs_diff: Number

    @model_validator(mode="after")
    def _check(self) -> Self:
        diff = max(
            abs(a - b)
            for row, other in zip(self.out_of_shuffled, self.shuffled_out, strict=True)
            for a, b in zip(row, other, strict=True)
        )
        if abs(diff - self.max_abs_diff) > 1e-15:
            raise ShapeError(
                "max_abs_diff", f"is {self.max_abs_diff}, but the outputs differ by {diff}"
            )
        return self


class PositionedRun(ShuffleRun):
    """The same, the positional table added first: and the rows the head was fed, each
    word's vector plus its place's row of the table (``inputs`` in the sentence's order,
    ``inputs_of_shuffled`` in the shuffled one: the same table, the words moved)."""

    inputs: Matrix
    inputs_of_shuffled: Matrix

    @model_validator(mode="after")
    def _check_inputs(self) -> Self:
        n, width = len(self.out), len(self.out[0])
        for key in ("inputs", "inputs_of_shuffled"):
            need_matrix(key, getattr(self, key), n, width)
        return self


class ShuffleProbe(Shape):
    """Pitfall 3: permutation equivariance, and how positional encoding breaks it, on the
    walkthrough sentence with its own W_Q, W_K and W_V."""

    tokens: list[str]
    permutation: list[int]
    without_positions: ShuffleRun
    with_positions: PositionedRun

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = len(self.tokens)
        if sorted(self.permutation) != list(range(n)):
            raise ShapeError("permutation", f"must be a permutation of 0..{n - 1}")
        for key in ("without_positions", "with_positions"):
            for field in ("out", "out_of_shuffled", "shuffled_out"):
                need_length(f"{key}.{field}", getattr(getattr(self, key), field), n)
        return self


class PositionalTable(Shape):
    """The sin/cos positional-encoding table: one row, one position's fingerprint."""

    positions: int
    width: int
    base: Number
    table: Matrix
    wide_positions: int
    wide_width: int
    wide: Matrix

    @model_validator(mode="after")
    def _check(self) -> Self:
        need_matrix("table", self.table, self.positions, self.width)
        need_matrix("wide", self.wide, self.wide_positions, self.wide_width)
        for key in ("table", "wide"):
            if any(abs(x) > 1 for row in getattr(self, key) for x in row):
                raise ShapeError(key, "has values outside [-1, 1]")
        return self


class AttentionRows(Shape):
    """softmax(scores) and the weighted sums of V; a masked score is None (minus infinity)."""

    scale: Number
    scores: MaskedMatrix
    exps: MaskedMatrix
    weights: Matrix
    outputs: Matrix

    def check(self, key: str, rows: int, cols: int, width: int) -> None:
        """Shapes against the sentence, and the softmax arithmetic row by row."""
        for name in ("scores", "exps"):
            need_matrix(f"{key}.{name}", getattr(self, name), rows, cols)
        need_stochastic(f"{key}.weights", self.weights, rows, cols)
        need_matrix(f"{key}.outputs", self.outputs, rows, width)
        for i, (s_row, e_row, w_row) in enumerate(
            zip(self.scores, self.exps, self.weights, strict=True)
        ):
            if any(s is None and w != 0 for s, w in zip(s_row, w_row, strict=True)):
                raise ShapeError(f"{key}.weights", f"row {i} gives weight to a masked position")
            total = sum(e for e in e_row if e is not None)
            if any(abs((e or 0) / total - w) > 1e-9 for e, w in zip(e_row, w_row, strict=True)):
                raise ShapeError(f"{key}.exps", f"row {i} divided by its sum is not the weights")


def _need_contributions(terms: Matrix, output: Vector, rows: int, width: int) -> None:
    """Per-key terms w_j * v_j of one output row; they must add up to it."""
    need_matrix("contributions", terms, rows, width)
    sums = [sum(t[c] for t in terms) for c in range(width)]
    if any(abs(a - b) > 1e-9 for a, b in zip(sums, output, strict=True)):
        raise ShapeError("contributions", "do not add up to the output")


class EatApple(Shape):
    """Seed 003's "我 吃 蘋果 (很 開心)": one query row step by step, then the causal mask."""

    tokens: Annotated[list[str], NonEmpty]
    gloss: list[str]
    dims: Names  # what each dimension means, for every language or per language
    other_sense: OtherSense | None  # the asking word where it means something else
    vocabulary: dict[str, Vector]  # more words and their vectors (the page's sentence demo)
    target: int  # the word the asking word gives the most weight
    d: int
    x: Matrix
    w_q: Matrix
    w_k: Matrix
    w_v: Matrix
    q: Matrix
    k: Matrix
    v: Matrix
    short: int
    query_index: int
    dots: Vector
    products: Matrix
    last_row: AttentionRows
    contributions: Matrix
    residual: Vector
    short_full: AttentionRows
    causal: AttentionRows

    @model_validator(mode="after")
    def _check(self) -> Self:
        n, d, short = len(self.tokens), self.d, self.short
        if not 0 < short <= n:
            raise ShapeError("short", f"must be between 1 and {n}")
        need_length("gloss", self.gloss, n)
        if not 0 <= self.target < short:
            raise ShapeError("target", f"must be between 0 and {short - 1}")
        for key in ("x", "q", "k", "v"):
            need_matrix(key, getattr(self, key), n, d)
        for key in ("w_q", "w_k", "w_v"):
            need_matrix(key, getattr(self, key), d, d)
        need_length("residual", self.residual, d)
        for word, vector in self.vocabulary.items():
            need_length(f"vocabulary.{word}", vector, d)
        need_length("dots", self.dots, short)
        need_matrix("products", self.products, short, d)
        self.last_row.check("last_row", 1, short, d)
        _need_contributions(self.contributions, self.last_row.outputs[0], short, d)
        self.short_full.check("short_full", short, short, d)
        self.causal.check("causal", n, n, d)
        return self


class TemperatureMap(AttentionRows):
    """The it_cat map at one temperature T."""

    t: Number


class ItCat(Shape):
    """Seed 002's seven-token sentence: it -> cat, with and without sqrt(d), over T."""

    tokens: Annotated[list[str], NonEmpty]
    dims: Names  # what each dimension means, for every language or per language
    referent: int  # the word the query gives the most weight
    d: int
    q: Matrix
    k: Matrix
    v: Matrix
    scaled: AttentionRows
    unscaled: AttentionRows
    temperatures: Annotated[list[TemperatureMap], NonEmpty]
    query_index: int
    contributions: Matrix

    @model_validator(mode="after")
    def _check(self) -> Self:
        n, d = len(self.tokens), self.d
        if not 0 <= self.query_index < n:
            raise ShapeError("query_index", f"must be between 0 and {n - 1}")
        if not 0 <= self.referent < n:
            raise ShapeError("referent", f"must be between 0 and {n - 1}")
        for key in ("q", "k", "v"):
            need_matrix(key, getattr(self, key), n, d)
        self.scaled.check("scaled", n, n, d)
        self.unscaled.check("unscaled", n, n, d)
        for i, temperature in enumerate(self.temperatures):
            temperature.check(f"temperatures.{i}", n, n, d)
        _need_contributions(self.contributions, self.scaled.outputs[self.query_index], n, d)
        return self


class OfficeStop(Shape):
    """One position of the Query arrow: its weights over the people and the average."""

    angle: Number
    length: Number
    query: Vector
    dots: Vector
    scores: Vector
    weights: Vector
    output: Number


class Office(Shape):
    """Seed 000's office: people at 2-D Keys holding Values (days), and a Query arrow."""

    people: Annotated[list[str], NonEmpty]
    keys: Matrix
    values: Vector
    scale: Number
    sweep: Annotated[list[OfficeStop], NonEmpty]
    grow: Annotated[list[OfficeStop], NonEmpty]

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = len(self.people)
        need_matrix("keys", self.keys, n, 2)
        need_length("values", self.values, n)
        for group in ("sweep", "grow"):
            for i, stop in enumerate(getattr(self, group)):
                need_length(f"{group}.{i}.query", stop.query, 2)
                need_length(f"{group}.{i}.dots", stop.dots, n)
                need_length(f"{group}.{i}.scores", stop.scores, n)
                need_distribution(f"{group}.{i}.weights", stop.weights)
        return self


class CausalRun(Run):
    """The colour task under a causal mask: the run, and its map on the example pattern."""

    example: str
    colours: list[int]
    values: Vector
    targets: Vector
    predictions: Vector
    attention: Matrix

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = len(self.colours)
        for key in ("values", "targets", "predictions"):
            need_length(key, getattr(self, key), n)
        need_stochastic("attention", self.attention, n, n)
        if any(w != 0 for i, row in enumerate(self.attention) for w in row[i + 1 :]):
            raise ShapeError("attention", "looks at a later position (the mask lets none through)")
        return self


RULE_MATCH = 0.9  # a trained head is named by a rule its map overlaps this much (1: the same)


class HeadsRun(Run):
    """Heads trained together with W_O on two relations; each head's map on one example."""

    heads: int
    d_head: int
    width: int
    position_width: int
    example: str
    colours: list[int]
    values: Vector
    targets: Matrix
    predictions: Matrix
    maps: list[Matrix]
    head_outputs: list[Matrix]
    v: list[Matrix]
    layer_out: Matrix
    position_table: Matrix
    w_o: Matrix
    colour_match: Vector
    previous_match: Vector
    similarity: Matrix
    ablated_mse: Vector  # per head: validation MSE with that head's output zeroed

    @model_validator(mode="after")
    def _check(self) -> Self:
        n, h = len(self.colours), self.heads
        if h * self.d_head != self.width:
            raise ShapeError("d_head", f"times {h} heads must equal the width {self.width}")
        need_length("values", self.values, n)
        for key in ("targets", "predictions"):
            need_matrix(key, getattr(self, key), n, 2)
        if len(self.maps) != h or len(self.head_outputs) != h:
            raise ShapeError("maps", f"and 'head_outputs' must hold {h} heads each")
        for k in range(h):
            need_stochastic(f"maps.{k}", self.maps[k], n, n)
            need_matrix(f"head_outputs.{k}", self.head_outputs[k], n, self.d_head)
            need_matrix(f"v.{k}", self.v[k], n, self.d_head)
        need_matrix("w_o", self.w_o, self.width, self.width)
        need_matrix("layer_out", self.layer_out, n, self.width)
        need_matrix("position_table", self.position_table, n, self.position_width)
        for key in ("colour_match", "previous_match"):
            need_length(key, getattr(self, key), h)
        need_matrix("similarity", self.similarity, h, h)
        need_length("ablated_mse", self.ablated_mse, h)
        return self


class Bookkeeping(Shape):
    """How a model width is shared among heads (seed 003: 4096 / 32 = 128)."""

    width: int
    heads: int
    d_head: int
    slices: list[list[int]]
    projection_shape: list[int]
    projection_params: int
    per_head_shape: list[int]
    per_head_params: int
    kv_group: int
    kv_heads: int

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.heads * self.d_head != self.width:
            raise ShapeError(
                "d_head", f"times {self.heads} heads must equal the width {self.width}"
            )
        for i, pair in enumerate(self.slices):
            need_length(f"slices.{i}", pair, 2)
        return self


class DeadEnds(Shape):
    """Seed 000's dead ends counted: a concatenated input's size and weights by length."""

    width: int
    hidden: int
    lengths: Annotated[list[int], NonEmpty]
    concat_inputs: list[int]
    concat_weights: list[int]
    attention_weights: int
    window: int

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = len(self.lengths)
        need_length("concat_inputs", self.concat_inputs, n)
        need_length("concat_weights", self.concat_weights, n)
        for k, length in enumerate(self.lengths):
            if self.concat_weights[k] != length * self.width * self.hidden:
                raise ShapeError(f"concat_weights.{k}", "is not length × width × hidden")
        if self.attention_weights != 3 * self.width * self.width:
            raise ShapeError("attention_weights", "is not 3 × width × width")
        return self


# The parts made from a walkthrough sentence, by their paths: a language with a sentence
# of its own (``[task.walkthroughs.<lang>]``) has each of them again, under ``own.<lang>``.
OWN_PARTS: dict[str, type[Shape]] = {
    "tokens.eat_apple": EatApple,
    "pitfalls.shuffle": ShuffleProbe,
    "positional": PositionalTable,
}


class OwnSentences(RootModel[dict[str, dict[str, Any]]]):
    """Each language's own walkthrough sentence: its :data:`OWN_PARTS`, by language code."""

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Self:
        for lang, found in self.root.items():
            if not LANGUAGE_CODE.fullmatch(lang):
                raise ShapeError(lang, "must be a language code (such as en or zh-TW)")
            if set(found) != set(OWN_PARTS):
                raise ShapeError(lang, f"must hold exactly {', '.join(OWN_PARTS)}")
            self.root[lang] = {
                path: model.model_validate(found[path], context=info.context)
                for path, model in OWN_PARTS.items()
            }
        return self
