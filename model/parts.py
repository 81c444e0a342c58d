"""The data file's parts beyond the colour task: pitfalls, positions, hand-made examples.

Each part is a frozen dataclass with a ``read`` classmethod that validates it (shapes
agree, weights are rows summing to 1, masked scores have zero weight, no NaN). Imports no
torch.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.reading import Matrix, Reader, Vector


@dataclass(frozen=True)
class ShareSummary:
    """Per-draw values with their min, max and mean."""

    values: Vector
    min: float
    max: float
    mean: float

    @classmethod
    def read(cls, r: Reader, draws: int) -> ShareSummary:
        values = r.vector("values", draws)
        summary = cls(values, r.number("min"), r.number("max"), r.number("mean"))
        if (summary.min, summary.max) != (min(values), max(values)):
            raise r.fail("min", "and 'max' disagree with 'values'")
        if abs(summary.mean - sum(values) / draws) > 1e-9:
            raise r.fail("mean", "disagrees with 'values'")
        return summary


@dataclass(frozen=True)
class ProjectionProbe:
    """Pitfall 1: the share of attention each word gives itself, without/with W_Q, W_K."""

    draws: int
    positions: int
    width: int
    uniform_share: float
    plain: ShareSummary
    projected: ShareSummary
    example_plain: Matrix
    example_projected: Matrix

    @classmethod
    def read(cls, r: Reader) -> ProjectionProbe:
        draws, n = r.integer("draws"), r.integer("positions")
        example = r.child("example")
        return cls(
            draws,
            n,
            r.integer("width"),
            r.number("uniform_share"),
            ShareSummary.read(r.child("plain"), draws),
            ShareSummary.read(r.child("projected"), draws),
            example.stochastic("plain", n, n),
            example.stochastic("projected", n, n),
        )


@dataclass(frozen=True)
class SqrtDRow:
    """Pitfall 2 at one width d: mean largest weight over the draws, and one draw."""

    d: int
    mean_max_unscaled: float
    mean_max_scaled: float
    example_scores: Vector
    example_unscaled: Vector
    example_scaled: Vector


@dataclass(frozen=True)
class SqrtDProbe:
    """Pitfall 2: softmax saturates without the division by sqrt(d)."""

    draws: int
    positions: int
    dims: tuple[SqrtDRow, ...]

    @classmethod
    def read(cls, r: Reader) -> SqrtDProbe:
        n = r.integer("positions")
        rows = tuple(
            SqrtDRow(
                row.integer("d"),
                row.number("mean_max_unscaled"),
                row.number("mean_max_scaled"),
                row.vector("example_scores", n),
                row.distribution("example_unscaled", n),
                row.distribution("example_scaled", n),
            )
            for row in r.children("dims")
        )
        return cls(r.integer("draws"), n, rows)

    def row(self, d: int) -> SqrtDRow:
        return next(row for row in self.dims if row.d == d)


@dataclass(frozen=True)
class ShuffleRun:
    """out(shuffled input) against shuffled(out(input))."""

    out: Vector
    out_of_shuffled: Vector
    shuffled_out: Vector
    max_abs_diff: float

    @classmethod
    def read(cls, r: Reader, n: int) -> ShuffleRun:
        run = cls(
            r.vector("out", n),
            r.vector("out_of_shuffled", n),
            r.vector("shuffled_out", n),
            r.number("max_abs_diff"),
        )
        diff = max(abs(a - b) for a, b in zip(run.out_of_shuffled, run.shuffled_out, strict=True))
        if abs(diff - run.max_abs_diff) > 1e-15:
            raise r.fail("max_abs_diff", f"is {run.max_abs_diff}, but the outputs differ by {diff}")
        return run


@dataclass(frozen=True)
class ShuffleProbe:
    """Pitfall 3: permutation equivariance, and how positional encoding breaks it."""

    example: str
    colours: tuple[int, ...]
    values: Vector
    permutation: tuple[int, ...]
    without_positions: ShuffleRun
    with_positions: ShuffleRun

    @classmethod
    def read(cls, r: Reader) -> ShuffleProbe:
        colours = r.integers("colours")
        n = len(colours)
        perm = r.integers("permutation", n)
        if sorted(perm) != list(range(n)):
            raise r.fail("permutation", f"must be a permutation of 0..{n - 1}")
        return cls(
            r.string("example"),
            colours,
            r.vector("values", n),
            perm,
            ShuffleRun.read(r.child("without_positions"), n),
            ShuffleRun.read(r.child("with_positions"), n),
        )


@dataclass(frozen=True)
class PositionalTable:
    """The sin/cos positional-encoding table: one row, one position's fingerprint."""

    positions: int
    width: int
    base: float
    table: Matrix

    @classmethod
    def read(cls, r: Reader) -> PositionalTable:
        n, w = r.integer("positions"), r.integer("width")
        table = r.matrix("table", n, w)
        if any(abs(x) > 1 for row in table for x in row):
            raise r.fail("table", "has values outside [-1, 1]")
        return cls(n, w, r.number("base"), table)


@dataclass(frozen=True)
class AttentionRows:
    """softmax(scores) and the weighted sums of V; a masked score is None (minus infinity)."""

    scale: float
    scores: tuple[tuple[float | None, ...], ...]
    exps: tuple[tuple[float | None, ...], ...]
    weights: Matrix
    outputs: Matrix

    @classmethod
    def read(cls, r: Reader, rows: int, cols: int, width: int) -> AttentionRows:
        scores = r.matrix("scores", rows, cols, allow_none=True)
        exps = r.matrix("exps", rows, cols, allow_none=True)
        weights = r.stochastic("weights", rows, cols)
        for i, (s_row, e_row, w_row) in enumerate(zip(scores, exps, weights, strict=True)):
            if any(s is None and w != 0 for s, w in zip(s_row, w_row, strict=True)):
                raise r.fail("weights", f"row {i} gives weight to a masked position")
            total = sum(e for e in e_row if e is not None)
            if any(abs((e or 0) / total - w) > 1e-9 for e, w in zip(e_row, w_row, strict=True)):
                raise r.fail("exps", f"row {i} divided by its sum is not the weights")
        return cls(r.number("scale"), scores, exps, weights, r.matrix("outputs", rows, width))


def _contributions(r: Reader, output: Vector, rows: int, width: int) -> Matrix:
    """Per-key terms w_j * v_j of one output row; they must add up to it."""
    terms = r.matrix("contributions", rows, width)
    sums = [sum(t[c] for t in terms) for c in range(width)]
    if any(abs(a - b) > 1e-9 for a, b in zip(sums, output, strict=True)):
        raise r.fail("contributions", "do not add up to the output")
    return terms


@dataclass(frozen=True)
class EatApple:
    """Seed 003's "我 吃 蘋果 (很 開心)": one query row step by step, then the causal mask."""

    tokens: tuple[str, ...]
    gloss: tuple[str, ...]
    d: int
    q: Matrix
    k: Matrix
    v: Matrix
    short: int
    query_index: int
    dots: Vector
    products: Matrix
    last_row: AttentionRows
    contributions: Matrix
    short_full: AttentionRows
    causal: AttentionRows

    @classmethod
    def read(cls, r: Reader) -> EatApple:
        tokens = r.strings("tokens")
        n, d, short = len(tokens), r.integer("d"), r.integer("short")
        if not 0 < short <= n:
            raise r.fail("short", f"must be between 1 and {n}")
        last_row = AttentionRows.read(r.child("last_row"), 1, short, d)
        return cls(
            tokens,
            r.strings("gloss", n),
            d,
            r.matrix("q", n, d),
            r.matrix("k", n, d),
            r.matrix("v", n, d),
            short,
            r.integer("query_index"),
            r.vector("dots", short),
            r.matrix("products", short, d),
            last_row,
            _contributions(r, last_row.outputs[0], short, d),
            AttentionRows.read(r.child("short_full"), short, short, d),
            AttentionRows.read(r.child("causal"), n, n, d),
        )


@dataclass(frozen=True)
class TemperatureMap:
    """The it_cat map at one temperature T."""

    t: float
    rows: AttentionRows


@dataclass(frozen=True)
class ItCat:
    """Seed 002's seven-token sentence: it -> cat, with and without sqrt(d), over T."""

    tokens: tuple[str, ...]
    d: int
    q: Matrix
    k: Matrix
    v: Matrix
    scaled: AttentionRows
    unscaled: AttentionRows
    temperatures: tuple[TemperatureMap, ...]
    query_index: int
    contributions: Matrix

    @classmethod
    def read(cls, r: Reader) -> ItCat:
        tokens = r.strings("tokens")
        n, d = len(tokens), r.integer("d")
        temps = tuple(
            TemperatureMap(t.number("t"), AttentionRows.read(t, n, n, d))
            for t in r.children("temperatures")
        )
        scaled = AttentionRows.read(r.child("scaled"), n, n, d)
        query = r.integer("query_index")
        if not 0 <= query < n:
            raise r.fail("query_index", f"must be between 0 and {n - 1}")
        return cls(
            tokens,
            d,
            r.matrix("q", n, d),
            r.matrix("k", n, d),
            r.matrix("v", n, d),
            scaled,
            AttentionRows.read(r.child("unscaled"), n, n, d),
            temps,
            query,
            _contributions(r, scaled.outputs[query], n, d),
        )

    def index(self, token: str) -> int:
        return self.tokens.index(token)


@dataclass(frozen=True)
class OfficeStop:
    """One position of the Query arrow: its weights over the people and the average."""

    angle: float
    length: float
    query: Vector
    scores: Vector
    weights: Vector
    output: float

    @classmethod
    def read(cls, r: Reader, people: int) -> OfficeStop:
        return cls(
            r.number("angle"),
            r.number("length"),
            r.vector("query", 2),
            r.vector("scores", people),
            r.distribution("weights", people),
            r.number("output"),
        )


@dataclass(frozen=True)
class Office:
    """Seed 000's office: people at 2-D Keys holding Values (days), and a Query arrow."""

    people: tuple[str, ...]
    keys: Matrix
    values: Vector
    scale: float
    sweep: tuple[OfficeStop, ...]
    grow: tuple[OfficeStop, ...]

    @classmethod
    def read(cls, r: Reader) -> Office:
        people = r.strings("people")
        n = len(people)
        return cls(
            people,
            r.matrix("keys", n, 2),
            r.vector("values", n),
            r.number("scale"),
            tuple(OfficeStop.read(s, n) for s in r.children("sweep")),
            tuple(OfficeStop.read(s, n) for s in r.children("grow")),
        )


@dataclass(frozen=True)
class MultiHeadToy:
    """Several heads on one toy input: each head's map, the concatenation, W_O's output."""

    tokens: tuple[str, ...]
    width: int
    heads: int
    d_head: int
    x: Matrix
    w_q: Matrix
    w_k: Matrix
    w_v: Matrix
    w_o: Matrix
    maps: tuple[Matrix, ...]
    concat: Matrix
    output: Matrix

    @classmethod
    def read(cls, r: Reader) -> MultiHeadToy:
        tokens = r.strings("tokens")
        n, d, heads, d_head = (
            len(tokens),
            r.integer("width"),
            r.integer("heads"),
            r.integer("d_head"),
        )
        if heads * d_head != d:
            raise r.fail("d_head", f"times {heads} heads must equal the width {d}")
        raw_maps = r.raw("maps")
        if not isinstance(raw_maps, list) or len(raw_maps) != heads:
            raise r.fail("maps", f"must hold {heads} maps")
        maps_reader = Reader(r.source, {str(h): m for h, m in enumerate(raw_maps)}, r.path("maps"))
        return cls(
            tokens,
            d,
            heads,
            d_head,
            r.matrix("x", n, d),
            *(r.matrix(name, d, d) for name in ("w_q", "w_k", "w_v", "w_o")),
            tuple(maps_reader.stochastic(str(h), n, n) for h in range(heads)),
            r.matrix("concat", n, d),
            r.matrix("output", n, d),
        )


@dataclass(frozen=True)
class Bookkeeping:
    """How a model width is shared among heads (seed 003: 4096 / 32 = 128)."""

    width: int
    heads: int
    d_head: int
    slices: tuple[tuple[int, ...], ...]
    projection_params: int
    per_head_params: int

    @classmethod
    def read(cls, r: Reader) -> Bookkeeping:
        width, heads, d_head = r.integer("width"), r.integer("heads"), r.integer("d_head")
        if heads * d_head != width:
            raise r.fail("d_head", f"times {heads} heads must equal the width {width}")
        slices = tuple(
            Reader(r.source, {"s": s}, r.path("slices")).integers("s", 2) for s in r.raw("slices")
        )
        return cls(
            width,
            heads,
            d_head,
            slices,
            r.integer("projection_params"),
            r.integer("per_head_params"),
        )
