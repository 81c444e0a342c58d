"""Three roles from one input (seeds 000, 003): X times W_Q, W_K and W_V, then the formula.

X has labelled dimensions, each matrix is drawn with its numbers, and each product is
computed on screen: the row of 蘋果 in X, through the "food" row of W_Q, becomes a Query
that looks for eating. Render alone with ``manim -ql scenes/chapters/qkv.py ThreeRoles``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Brace,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    ManimColor,
    MathTex,
    ReplacementTransform,
    Restore,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import AttentionFormula
from scenes.kit.emphasis import outline
from scenes.kit.maps import LabelledMatrix
from scenes.kit.numbers import phrase
from scenes.kit.vectors import NumberVector


def roles() -> tuple[tuple[str, str, ManimColor], ...]:
    """Q, K and V: their key in the data, their letter and their colour in this theme."""
    return (("q", "Q", style.QUERY), ("k", "K", style.KEY), ("v", "V", style.VALUE))


SRC = "tokens.eat_apple"
SELF_GROWTH = 1.6  # 蘋果's X, Q, K and V grow, at most this much, when they are the picture
FILL = 0.85  # of the content area's width they may take
OPENING_GROWTH = 1.8  # X alone at the start, enlarged at most this much
CELL = 0.58  # a cell of a 4-wide matrix; narrower ones get larger cells
REFERENCE_DIMS = 4


class ThreeRoles(LectureScene):
    """Q = X W_Q, K = X W_K, V = X W_V computed on screen; then the two-line formula."""

    scene_key = "qkv"
    reads = ("tokens.eat_apple",)

    def construct(self) -> None:
        self.ex = self.data.eat_apple
        self.n = self.ex.short
        self.fit = 1.0  # the scale the layout puts on the equation, kept by later matrices
        self.kept = self._apple_vectors()
        title = self.make_title()
        x = self._matrix(self.ex.x[: self.n], f"{SRC}.x", "X", style.FOREGROUND, tokens=True)
        line = self._equation(x)
        self.add(title)  # the title at once: no frame is only a title being written
        # X alone first, large in the middle; it goes to its place in X W_Q = Q as that is said.
        x.save_state()
        style.place(x, grow=OPENING_GROWTH)
        self.say("intro", FadeIn(x.body))
        self.say(
            "x",
            outline(*(x.grid.get_row(i) for i in range(self.n)), colour=style.FOREGROUND),
            beats={
                "token": [FadeIn(x.grid.row_headers, shift=RIGHT * style.GROUP_BUFF, lag_ratio=0.4)]
            },
        )
        self.say(
            "dims",
            FadeIn(x.grid.col_headers, lag_ratio=0.3),
            FadeIn(x.name),
            beats={"picked": [outline(x.grid.col_headers)]},
        )
        kept = self._project_all(line)
        self._differ(kept)
        self._formula()

    # --- pictures ----------------------------------------------------------------------
    def _matrix(self, values, source, name, colour, tokens=False, rows=False) -> VGroup:
        """A matrix with its numbers, its name above, dims over columns (and rows)."""
        dims = self.dim_names(self.ex)
        row_headers = None
        if tokens:
            row_headers = [style.text(t, style.LABEL_SIZE) for t in self.apple_words()[: self.n]]
        elif rows:
            row_headers = [style.text(d, style.SMALL_SIZE, style.MUTED) for d in dims]
        col_headers = [style.text(d, style.SMALL_SIZE, style.MUTED) for d in dims]
        cell = CELL * max(1.0, REFERENCE_DIMS / self.ex.d)
        matrix = LabelledMatrix(values, source, name, colour, col_headers, row_headers, cell)
        return matrix.scale(self.fit)

    def _equation(self, x: VGroup) -> VGroup:
        """X × W_Q = Q, laid out on the top of the frame, X where it already is."""
        times, equals = MathTex(r"\times", font_size=48), MathTex("=", font_size=48)
        w = self._matrix(self.ex.w_q, f"{SRC}.w_q", "W_Q", style.QUERY, rows=True)
        q = self._matrix(self.ex.q[: self.n], f"{SRC}.q", "Q", style.QUERY)
        line = VGroup(x, times, w, equals, q).arrange(RIGHT, buff=style.GROUP_BUFF)
        width = line.width
        style.place(line, UP)
        # Above the kept vectors.
        overflow = self.kept.get_top()[1] + style.GROUP_BUFF - line.get_bottom()[1]
        if overflow > 0:
            line.scale((line.height - overflow) / line.height, about_edge=UP)
        self.fit = line.width / width
        for part in (times, equals, q):  # on the rows of X, not the centre of W
            part.match_y(x.grid.cells)
        return line

    def _project_all(self, line: VGroup) -> VGroup:
        """Q, then K, then V, each computed in the equation; 蘋果's row of each is kept."""
        x, times, w, equals, result = line
        self.say(
            "project",
            Restore(x),
            FadeIn(VGroup(times, w, equals), lag_ratio=0.2),
            then=[[TransformFromCopy(x.body, result.body), FadeIn(result.heads)]],
        )
        self._apple_row(x, w, result)
        kept = self.kept
        self.say(
            "q", TransformFromCopy(result.grid.get_row(self.ex.query_index), kept[0]), run_time=1.5
        )
        for (key, letter, colour), vector in zip(roles()[1:], kept[1:], strict=True):
            w_new = self._matrix(
                getattr(self.ex, f"w_{key}"), f"{SRC}.w_{key}", f"W_{letter}", colour, rows=True
            ).move_to(w)
            new = self._matrix(getattr(self.ex, key)[: self.n], f"{SRC}.{key}", letter, colour)
            new.move_to(result)
            self.say(
                key,
                ReplacementTransform(w, w_new),
                FadeOut(result),
                then=[
                    [TransformFromCopy(x.body, new.body), FadeIn(new.heads)],
                    [TransformFromCopy(new.grid.get_row(self.ex.query_index), vector)],
                ],
            )
            w, result = w_new, new
        self._shape(result)
        self.equation = VGroup(x, times, w, equals, result, self.shape)
        return kept

    def _apple_row(self, x: VGroup, w: VGroup, q: VGroup) -> None:
        """蘋果's row of X, through W_Q's food row, becomes a Query that looks for eating."""
        i = self.ex.query_index
        food = max(range(self.ex.d), key=lambda c: self.ex.x[i][c])
        eat = max(range(self.ex.d), key=lambda c: self.ex.q[i][c])
        frames = VGroup(
            SurroundingRectangle(x.grid.get_row(i), buff=style.TIGHT_BUFF),
            SurroundingRectangle(w.grid.get_row(food), buff=style.TIGHT_BUFF),
            SurroundingRectangle(q.grid.get_row(i), buff=style.TIGHT_BUFF),
        ).set_color(style.HIGHLIGHT)
        cell = SurroundingRectangle(q.grid.get_cell(i, eat), buff=0, color=style.HIGHLIGHT)
        big = self.spoken(f"{SRC}.q[{i}][{eat}]", 1)
        self.say(
            "apple_row",
            FadeIn(frames[0]),
            beats={"wq": [FadeIn(frames[1])]},
            token=self.apple_words()[i],
            big=big,
        )
        self.say(
            "apple_q",
            FadeIn(frames[2]),
            beats={"cell": [ReplacementTransform(frames, cell)]},
            big=big,
        )
        self.play(FadeOut(cell))

    def _apple_vectors(self) -> VGroup:
        """蘋果's Query, Key and Value, one under another at the bottom, with their meaning."""
        i = self.ex.query_index
        rows = VGroup()
        for key, letter, colour in roles():
            vector = NumberVector(
                getattr(self.ex, key)[i], f"{SRC}.{key}[{i}]", "", colour, decimals=1
            )
            name = style.text(
                self.words.format("apple_of", role=letter, token=self.apple_words()[i]),
                style.LABEL_SIZE,
                colour,
            )
            meaning = style.text(self.words[f"{key}_means"], style.LABEL_SIZE, colour)
            rows.add(VGroup(name, vector, meaning).arrange(RIGHT, buff=style.GROUP_BUFF))
        rows.arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        style.place(rows, DOWN)
        return rows

    def _x_row(self, i: int) -> VGroup:
        """Row ``i`` of X as a vector with its name: what the three roles are made from."""
        vector = NumberVector(self.ex.x[i], f"{SRC}.x[{i}]", "", style.FOREGROUND, decimals=1)
        name = style.text(
            self.words.format("apple_of", role="X", token=self.apple_words()[i]), style.LABEL_SIZE
        )
        return VGroup(name, vector).arrange(DOWN, buff=style.ITEM_BUFF)

    def _shape(self, result: VGroup) -> None:
        n, d = (
            self.number(f"{SRC}.short", 0),
            self.number(f"{SRC}.d", 0),
        )
        self.shape = phrase(self.words["shape"], style.SMALL_SIZE, style.MUTED, n=n, d=d)
        # Under the matrix, or beside it where the kept vectors are below.
        for side in (DOWN, RIGHT):
            brace = Brace(result.grid.cells, side, buff=style.TIGHT_BUFF, color=style.MUTED)
            self.shape.next_to(brace, side, buff=style.TIGHT_BUFF)
            shape, kept = self.shape, self.kept
            clear = (
                shape.get_bottom()[1] > kept.get_top()[1] + style.TIGHT_BUFF
                or shape.get_left()[0] > kept.get_right()[0] + style.TIGHT_BUFF
            )
            if clear:
                break
        self.shape.add(brace)
        self.say("shape_line", FadeIn(self.shape), n=n, d=d)

    def _differ(self, kept: VGroup) -> None:
        """The equation gives way; 蘋果's three different vectors stay."""
        differ = MathTex(r"W_Q", r"\neq", r"W_K", r"\neq", r"W_V", font_size=56)
        for part, (_, _, colour) in zip(differ[::2], roles(), strict=True):
            part.set_color(colour)
        # 蘋果's row of X on the left, its three vectors on the right: one source, three roles.
        i = self.ex.query_index
        source = self._x_row(i)
        target = kept.copy()
        below = VGroup(source, target).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        left, _, right, _ = style.content_area()
        grow = min(SELF_GROWTH, FILL * (right - left) / below.width)
        below.scale(grow)  # the three vectors large: they are the picture now
        style.place(VGroup(differ, below).arrange(DOWN, buff=style.SECTION_BUFF))
        self.say(
            "differ",
            ReplacementTransform(self.equation[1:], differ),
            FadeOut(self.equation[0]),
            TransformFromCopy(self.equation[0].grid.get_row(i), source),
            kept.animate.scale(grow).move_to(target),
            run_time=1.5,
        )
        vector = source[1]
        arrows = VGroup(
            *(
                Arrow(vector.get_right(), row.get_left(), buff=style.ITEM_BUFF, color=colour)
                for row, (_, _, colour) in zip(kept, roles(), strict=True)
            )
        )
        self.say(
            "self",
            outline(vector, colour=style.FOREGROUND),
            LaggedStart(*(GrowArrow(a) for a in arrows), lag_ratio=0.4),
            beats={"roles": [outline(*kept)]},
            token=self.apple_words()[i],
        )
        self.play(*(FadeOut(m) for m in self.mobjects if not getattr(m, "gate_title", False)))

    # --- the formula -------------------------------------------------------------------
    def _formula(self) -> None:
        formula = style.place(AttentionFormula())
        self.say("formula_intro", Write(formula.projections), run_time=2)
        self.say("qk", Write(formula.get_scores()))
        self.say("sqrt", Write(formula.get_scale()))
        self.say("softmax", Write(formula.get_softmax()))
        self.say("weigh_v", Write(formula.get_values()))
        self.say("outro", outline(formula, colour=style.FOREGROUND))
