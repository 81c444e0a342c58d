"""The causal mask (seed 003): no looking ahead, step by step, then learned for real.

"我 吃 蘋果 很 開心": scores after the query become −∞, exp gives 0, each row still sums to 1.
Then the colour task with the mask on, trained: the same blocks, cut to a triangle.
Render alone with ``manim -ql scenes/chapters/causal.py CausalMask``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    MathTex,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Sum, phrase

EAT = "tokens.eat_apple"
CELL = 0.8
SIDE_BY_SIDE = 6  # the longest sentence whose scores and weights fit side by side
ONE_GRID_HEIGHT = 4.5  # a longer sentence's one table fits in this height
ALONE_GROWTH = 1.5  # the score table, alone at first, enlarged at most this much


class CausalMask(LectureScene):
    """−∞ above the diagonal, weight 0, rows still 1; the learned triangle of colour blocks."""

    scene_key = "causal"
    reads = ("tokens.eat_apple", "causal", "examples.mixed")

    def construct(self) -> None:
        self.ex = self.data.eat_apple
        self.title = self.make_title()
        self._sentence()
        self._step_by_step()
        self._learned()

    def _grid(self, values, name: str, heat: bool) -> AttentionGrid:
        """The causal block's ``name`` table, words looking in rows, words looked at above."""
        words = self.apple_words()
        side_by_side = len(words) <= SIDE_BY_SIDE
        return AttentionGrid(
            values,
            f"{EAT}.causal.{name}",
            row_headers=[style.text(t, style.LABEL_SIZE, style.QUERY) for t in words],
            col_headers=[style.text(t, style.LABEL_SIZE, style.KEY) for t in words],
            cell_size=CELL if side_by_side else min(CELL, ONE_GRID_HEIGHT / len(words)),
            heat=heat,
        )

    def _sentence(self) -> None:
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.apple_words()))
        style.place(words.arrange(RIGHT, buff=style.WIDE_BUFF))
        later = words[self.ex.short :]
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(words[: self.ex.short], lag_ratio=0.3))
        self.say(
            "no_peeking",
            FadeIn(later.set_opacity(style.DIMMED), lag_ratio=0.3),
            beats={
                # Copies made now: two .animate builders on one mobject share its target.
                "whole": [Transform(later, later.copy().set_opacity(1))],
                "mask": [Transform(later, later.copy().set_opacity(style.DIMMED))],
            },
        )
        self.play(FadeOut(words))

    def _step_by_step(self) -> None:
        c = self.ex.causal
        n = len(self.ex.tokens)
        grid = self._grid(c.scores, "scores", heat=False)
        later = [(i, j) for i in range(n) for j in range(n) if j > i]
        weights = self._grid(c.weights, "weights", heat=True)
        sums = VGroup(
            *(
                self.number(Sum(f"{EAT}.causal.weights[{i}]"), 2, style.LABEL_SIZE).next_to(
                    weights.get_cell(i, n - 1), RIGHT, buff=style.GROUP_BUFF
                )
                for i, row in enumerate(c.weights)
            )
        )
        # A short sentence shows scores and weights side by side; a long one turns the
        # scores into the weights in place, so that the numbers stay legible.
        side_by_side = n <= SIDE_BY_SIDE
        if side_by_side:
            style.place(VGroup(grid, VGroup(weights, sums)).arrange(RIGHT, buff=1.2))
        else:
            style.place(VGroup(weights, sums))
            grid.shift(weights.cells.get_center() - grid.cells.get_center())
        minus = VGroup(
            *(
                MathTex(r"-\infty", font_size=30 * grid.get_cell(0, 0).width / CELL).move_to(
                    grid.get_cell(i, j)
                )
                for i, j in later
            )
        )
        upper = VGroup(  # the blank cells, about to be masked, outlined as the words name them
            *(
                SurroundingRectangle(grid.get_cell(i, j), buff=0, color=style.HIGHLIGHT)
                for i, j in later
            )
        ).set_stroke(width=2)
        # Side by side, the score table stands alone in the middle first, large, and makes
        # room for the weights as they are computed.
        home = (grid.copy(), minus.copy())  # where they end, beside the weights
        if side_by_side:
            style.place(VGroup(grid, upper, minus), grow=ALONE_GROWTH)
        self.say("scores", FadeIn(grid), beats={"upper": [Create(upper, lag_ratio=0.1)]})
        self.say("minus", FadeOut(upper), FadeIn(minus, lag_ratio=0.1))
        if side_by_side:
            self.play(Transform(grid, home[0]), Transform(minus, home[1]))
        zeros = VGroup(*(weights.get_number(i, j) for i, j in later))

        def seen(g: AttentionGrid) -> VGroup:  # the numbers at or before the diagonal
            return VGroup(*(g.get_number(i, j) for i in range(n) for j in range(i + 1)))

        if side_by_side:
            self.say(
                "zero",
                FadeIn(weights.cells),
                FadeIn(VGroup(weights.row_headers, weights.col_headers)),
                ReplacementTransform(minus.copy(), zeros),
                then=[[TransformFromCopy(seen(grid), seen(weights))]],
            )
        else:
            self.say(
                "zero",
                ReplacementTransform(grid.cells, weights.cells),
                ReplacementTransform(
                    VGroup(grid.row_headers, grid.col_headers),
                    VGroup(weights.row_headers, weights.col_headers),
                ),
                ReplacementTransform(minus, zeros),
                then=[[ReplacementTransform(seen(grid), seen(weights))]],
            )
        self.say("sums", FadeIn(sums, lag_ratio=0.2))
        first = SurroundingRectangle(weights.get_row(0), color=style.HIGHLIGHT, buff=0)
        self.say("first", FadeIn(first), token=self.apple_words()[0])
        i = self.ex.query_index
        apple = SurroundingRectangle(weights.get_row(i), color=style.HIGHLIGHT, buff=0)
        self.say("apple", ReplacementTransform(first, apple), token=self.apple_words()[i])
        self.masked = weights  # carried into the retraining: the mask the new head learns under

    def _learned(self) -> None:
        run, mixed = self.data.causal, self.data.example("mixed")
        maps = VGroup()
        for name, weights, source in (
            ("both_ways", mixed.attention, "examples.mixed.attention"),
            ("causal_map", run.attention, "causal.attention"),
        ):
            grid = self.colour_map(run.colours, weights, source, 0.52)
            label = style.text(self.words[name], style.BODY_SIZE)
            maps.add(VGroup(label.next_to(grid, UP, buff=style.ITEM_BUFF), grid))
        maps.arrange(RIGHT, buff=style.WIDE_BUFF * 1.5, aligned_edge=DOWN)
        val = self.number("causal.val_mse", 3, notation="auto")
        base = self.number("causal.baseline_mse", 3)
        result = phrase(self.words["result"], style.LABEL_SIZE, val=val, base=base)
        style.place(VGroup(maps, result).arrange(DOWN, buff=style.ITEM_BUFF))
        # The masked map stays and moves to where the masked head's map will be; the rest
        # (scores, sums, frames) makes way.
        masked = self.masked
        kept = set(masked.get_family())
        rest = [m for m in self.mobjects if m is not self.title and not set(m.get_family()) <= kept]
        grid = maps[1][1]
        self.say(
            "retrain",
            *(FadeOut(m) for m in rest),
            masked.animate.scale(grid.cells.height / masked.cells.height).move_to(grid.cells),
            beats={"left": [FadeIn(maps[0])]},
        )
        self.say("triangle", TransformFromCopy(maps[0], maps[1]), FadeOut(masked))
        row = len(run.colours) - 2
        k = sum(1 for j in range(row + 1) if run.colours[j] == run.colours[row])
        frame = SurroundingRectangle(maps[1][1].get_row(row), color=style.HIGHLIGHT, buff=0)
        share = self.spoken(f"causal.attention[{row}][{row}]", 2)
        self.say("row", FadeIn(frame), row=row + 1, k=k, w=share)
        self.say("result_say", FadeIn(result), val=val, base=base)
        self.say("outro", FadeOut(frame), Circumscribe(maps[1][1].cells, color=style.HIGHLIGHT))
