"""Scoring: Q·K (seeds 003, 002). One query against every key, step by step, then the table.

Render alone with ``manim -ql scenes/chapters/scoring.py Scoring``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from manim import (
    DOWN,
    DR,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromPoint,
    LaggedStart,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    UpdateFromAlphaFunc,
    VGroup,
)

from scenes.chapters.qkv import worked_formula
from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.devices import DotArrows
from scenes.kit.numbers import Spoken, phrase
from scenes.kit.vectors import NumberVector

SOURCE = "tokens.eat_apple"


TOWARD = 0.2  # k turned toward q: this share of their angle left
LONGER = 1.6  # k stretched to this multiple of its length
HAND_OFF = 0.8  # seconds: the working goes and the table moves to where softmax takes it
GROW = 1.5  # the most the working and its table are enlarged to fill the frame
CORNER = 0.8  # the formula's QKᵀ/√d, as the table's name in its corner: shrunk to this


class Scoring(LectureScene):
    """蘋果's query scores each key: products, their sum, the division by sqrt(d)."""

    scene_key = "scoring"
    reads = ("tokens.eat_apple", "pitfalls.sqrt_d")  # the sqrt_d walks lay qkv's picture out
    opens_on = worked_formula.__name__
    ends_on = "score_table"

    def construct(self) -> None:
        self.ex = ex = self.data.eat_apple
        self.i = ex.query_index
        title = self.make_title()
        self.grid = self._build_table()
        q = NumberVector(
            ex.q[self.i],
            f"{SOURCE}.q[{self.i}]",
            self._name("q", self.i),
            style.QUERY,
            size=style.LABEL_SIZE,
        )
        # The widest the working gets (every key's name), for the layout.
        self.fit = 1.0  # the scale the layout puts on the working, kept by later steps
        root = self.ex.last_row.scale  # √d: said as a whole number only when it is one (d = 4)
        self.scale_decimals = 0 if abs(root - round(root)) < 1e-9 else 2
        left = VGroup(q, *(step for j in range(ex.short) for step in self._steps(j, q)))
        width = q.width
        board = VGroup(left, self.grid).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5)
        style.place(board, grow=GROW)  # the working and its table fill the frame
        self.fit = q.width / width
        grid = self.cells_grid
        rows, cols = grid.row_headers, grid.col_headers
        # qkv's last picture at once: the two lines over the plane, 蘋果's row worked through
        # them. What this chapter computes is the formula's QKᵀ/√d: on "scores" it travels
        # into the corner of the empty table as its name while the rest leaves, and the cells
        # grow out of it; its Q then gives the rows their names (each word's Query), its Kᵀ
        # the columns theirs (each word's Key).
        formula, summed, worked = worked_formula(self)
        scored = formula.attention[2:6]  # Q, Kᵀ, the fraction's bar, √d
        said = VGroup(formula.projections, *formula.attention[:2], *formula.attention[6:])
        self.add(title, said, scored, summed, worked)
        self.corner = self._corner(scored.copy())
        q_name, k_name = self.corner[:2]
        self.say(
            "intro",
            # the rest has gone before QKᵀ/√d lands where the worked row stood; the cells
            # grow out of it as it lands (times as shares of the line's first beat)
            AnimationGroup(
                AnimationGroup(FadeOut(said), FadeOut(summed), FadeOut(worked), run_time=0.45),
                ReplacementTransform(scored, self.corner, run_time=0.55),
                GrowFromPoint(grid.cells, self.corner.get_corner(DR), run_time=0.45),
                lag_ratio=0.55,
            ),
            beats={
                "queries": [
                    LaggedStart(*(TransformFromCopy(q_name, r) for r in rows), lag_ratio=0.2),
                    FadeIn(self.table_frame[4]),
                ],
                "keys": [
                    LaggedStart(*(TransformFromCopy(k_name, c) for c in cols), lag_ratio=0.2),
                    FadeIn(self.table_frame[3]),
                ],
            },
        )
        self.say("focus", FadeIn(q), token=self.apple_words()[self.i])
        steps = self._steps(0, q)
        k, products, total, result = steps
        self.say(
            "key",
            FadeIn(k),
            beats={
                # each pair of entries, q's over k's, drops its product into the × row
                "pairs": [
                    FadeIn(products.brackets, products.label),
                    LaggedStart(
                        *(
                            TransformFromCopy(
                                VGroup(q.get_entry(e), k.get_entry(e)), products.get_entry(e)
                            )
                            for e in range(len(products.entries))
                        ),
                        lag_ratio=0.6,
                    ),
                ]
            },
            token=self.apple_words()[0],
        )
        self.say(  # the products slide together into their sum
            "sum", TransformFromCopy(products.entries, total), dot=self._numbers(0)["dot"]
        )
        self.say("scale", TransformFromCopy(total, result), **self._numbers(0))
        self._land(0, result)
        drawn = None  # the dot product drawn as arrows, over the working, for key 1
        for j in range(1, ex.short):
            new = self._steps(j, q)
            swap = [ReplacementTransform(a, b) for a, b in zip(steps, new, strict=True)]
            if drawn is not None:  # the working comes back as the arrows leave
                swap = [FadeOut(drawn), FadeIn(q), *(FadeIn(step) for step in new)]
                drawn = None
            steps = new
            line = "key_self" if j == self.i else "key_next" if j == 1 else "key_more"
            beats = {}
            if line == "key_next":
                drawn = self._drawn(j, VGroup(q, *steps))
                beats = self._show_drawn(j, drawn, q, steps)
            self._land(j, steps[3], words=line, first=swap, beats=beats)
        others = [(r, c) for r in range(grid.n_rows) if r != self.i for c in range(grid.n_cols)]
        # one Query's row, then one Key's column (the one the Query gives the highest score)
        row = SurroundingRectangle(
            VGroup(rows[self.i], grid.get_row(self.i)), color=style.QUERY, buff=style.TIGHT_BUFF
        )
        top = top_index(ex.last_row.scores[0])
        column = SurroundingRectangle(
            VGroup(cols[top], *(grid.get_cell(r, top) for r in range(grid.n_rows))),
            color=style.KEY,
            buff=style.TIGHT_BUFF,
        )
        self.say(
            "rest",
            FadeIn(
                VGroup(*(grid.get_number(r, c) for r, c in others)),
                shift=RIGHT * style.GROUP_BUFF,
                lag_ratio=0.1,
            ),
            *(self._shade(r, c) for r, c in others),
            beats={
                "layout": [Circumscribe(self.table_frame, color=style.HIGHLIGHT)],
                "rows": [Create(row)],
                "cols": [ReplacementTransform(row, column)],
            },
            run_time=2,
        )
        # the table alone, at its own size, where the softmax chapter opens on it
        handed = self.grid.copy().scale(1 / self.fit)
        style.place(handed, aligned=RIGHT)
        self.play(
            FadeOut(q, *steps, column, self.corner),
            Transform(self.grid, handed),
            run_time=HAND_OFF,
        )

    def _name(self, letter: str, j: int) -> str:
        return self.apple_label(letter, j)

    def _numbers(self, j: int) -> dict[str, str | Spoken]:
        """What the narration says of key j: its dot product, the scale, the score."""
        return {
            "dot": self.spoken(f"{SOURCE}.dots[{j}]", 2),
            "scale": self.spoken(f"{SOURCE}.last_row.scale", self.scale_decimals),
            "score": self.spoken(f"{SOURCE}.last_row.scores[0][{j}]", 2),
            "token": self.apple_words()[j],
        }

    # --- the computation ---------------------------------------------------------------
    def _steps(self, j: int, q: NumberVector) -> list:
        ex = self.ex
        size = style.LABEL_SIZE
        k = NumberVector(ex.k[j], f"{SOURCE}.k[{j}]", self._name("k", j), style.KEY, size=size)
        products = NumberVector(ex.products[j], f"{SOURCE}.products[{j}]", "×", size=size)
        total = phrase(
            self.with_sign("sum_line", ex.products[j], ex.dots[j], 2),
            style.BODY_SIZE,
            dot=self.number(f"{SOURCE}.dots[{j}]", 2),
        )
        result = phrase(
            self.words["scale_line"],
            style.BODY_SIZE,
            dot=self.number(f"{SOURCE}.dots[{j}]", 2),
            scale=self.number(f"{SOURCE}.last_row.scale", self.scale_decimals),
            score=self.number(f"{SOURCE}.last_row.scores[0][{j}]", 2),
        )
        column = VGroup(k, products, total, result).arrange(
            DOWN, aligned_edge=RIGHT, buff=style.ROW_BUFF
        )
        column.scale(self.fit)
        column.next_to(q, DOWN, buff=style.ROW_BUFF).align_to(q, RIGHT)
        return list(column)

    # --- the table ---------------------------------------------------------------------
    def _corner(self, name: VGroup) -> VGroup:
        """``name`` (the formula's QKᵀ/√d) in the table's top left corner, over the rows'
        names and left of the columns': what the table holds."""
        cells, query_axis = self.cells_grid.cells, self.table_frame[4]
        _, _, _, top = style.content_area()
        room = (
            cells.get_left()[0] - query_axis.get_left()[0] - style.ITEM_BUFF,
            top - cells.get_top()[1] - style.ITEM_BUFF,
        )
        name.scale(min(CORNER, room[0] / name.width, room[1] / name.height))
        return name.next_to(cells, UP, buff=style.ITEM_BUFF).next_to(
            cells, LEFT, buff=style.ITEM_BUFF, coor_mask=RIGHT
        )

    def _build_table(self) -> VGroup:
        grid, key_axis, query_axis = self.score_board()
        # each cell takes its shade (brighter, higher) when its score lands; plain until then
        self.shades = [cell.get_fill_color() for cell in grid.cells]
        grid.cells.set_fill(style.PLAIN_CELL)
        self.cells_grid = grid
        self.table_frame = VGroup(
            grid.cells, grid.row_headers, grid.col_headers, key_axis, query_axis
        )
        return VGroup(self.table_frame, grid.numbers)

    def _land(
        self,
        j: int,
        result: VGroup,
        words: str = "land",
        first: Sequence = (),
        beats: dict | None = None,
    ) -> None:
        """The score flies from the working into its cell (after ``first``, if given)."""
        target = self.cells_grid.get_number(self.i, j)
        land = [TransformFromCopy(result[-1], target), self._shade(self.i, j)]
        groups = [list(first), land] if first else [land]
        self.say(words, *groups[0], then=groups[1:], beats=beats, **self._numbers(j))

    def _shade(self, r: int, c: int) -> Animation:
        """Cell (r, c) takes the shade of its score."""
        grid = self.cells_grid
        return grid.get_cell(r, c).animate.set_fill(self.shades[r * grid.n_cols + c])

    def _drawn(self, j: int, working: VGroup) -> DotArrows:
        """q · k_j as arrows in their own plane, the size of the working it stands over."""
        ex = self.ex
        drawn = DotArrows(ex.q[self.i], ex.k[j], "q", "k", style.QUERY, style.KEY)
        drawn.scale_to_fit_width(working.width * 0.8)
        if drawn.height > working.height * 0.8:
            drawn.scale_to_fit_height(working.height * 0.8)
        return drawn.move_to(working)

    def _show_drawn(self, j: int, drawn: DotArrows, q: NumberVector, steps: list) -> dict:
        """The working makes way; the arrows, the angle and k's shadow on q; k turns toward q
        and back (the shadow grows as the directions agree); on ``long``, k stretches and
        its shadow with it."""
        ex = self.ex
        turn = self._turn(drawn, ex.q[self.i], ex.k[j])
        return {
            "shape": [
                FadeOut(q),
                *(FadeOut(step) for step in steps),
                Succession(
                    AnimationGroup(
                        *(GrowArrow(a) for a in (drawn.a, drawn.b)),
                        FadeIn(drawn.names),
                        run_time=0.8,
                    ),
                    AnimationGroup(
                        Create(drawn.angle_group),
                        Create(drawn.drop),
                        Create(drawn.shadow),
                        run_time=0.8,
                    ),
                    turn(TOWARD, 1.0, run_time=0.9),
                    turn(1.0, 1.0, run_time=0.7),
                ),
            ],
            "long": [Succession(turn(1.0, LONGER, run_time=0.9), turn(1.0, 1.0, run_time=0.7))],
        }

    @staticmethod
    def _turn(drawn: DotArrows, a: Sequence[float], b: Sequence[float]) -> Callable:
        """Animations that redraw ``drawn`` with b at a share of its angle to a and a multiple
        of its length, from wherever the last one left it (a stays where it is)."""
        a_len, b_len = math.hypot(*a), math.hypot(*b)
        theta = math.acos(
            max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b, strict=True)) / (a_len * b_len)))
        )
        scale = drawn.a.get_length() / a_len  # scene units per unit, as the working fits it
        origin = drawn.a.get_start().copy()  # where q and k start
        state = {"angle": 1.0, "length": 1.0}

        def picture(angle: float, length: float) -> DotArrows:
            t, r = theta * angle, b_len * length
            new = DotArrows(
                [a_len, 0.0],
                [r * math.cos(t), r * math.sin(t)],
                "q",
                "k",
                drawn.a.get_color(),
                drawn.b.get_color(),
            )
            new.scale(scale, about_point=ORIGIN)
            return new.shift(origin - new.a.get_start())

        def turn(angle: float, length: float, run_time: float) -> Animation:
            start = dict(state)
            state.update(angle=angle, length=length)

            def step(mob: DotArrows, alpha: float) -> None:
                mob.become(
                    picture(
                        start["angle"] + (angle - start["angle"]) * alpha,
                        start["length"] + (length - start["length"]) * alpha,
                    )
                )

            return UpdateFromAlphaFunc(drawn, step, run_time=run_time)

        return turn
