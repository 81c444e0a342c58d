"""The weighted sum of V (seeds 003, 002): shares times values, added into a new vector.

Render alone with ``manim -ql scenes/weighted_sum.py WeightedSum``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    FadeIn,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import AttentionGrid, NumberVector
from scenes.numbers import Ref, ShownNumber, Spoken

EAT = "tokens.eat_apple"
IT = "tokens.it_cat"


class WeightedSum(LectureScene):
    """b = sum_j w_j v_j for 蘋果; it ≈ 0.83 v(cat) + ...; n positions in, n out."""

    scene_key = "weighted_sum"
    reads = ("tokens.eat_apple", "tokens.it_cat")

    def construct(self) -> None:
        self.title = self.make_title()
        self.say("intro", Write(self.title))
        self._apple()
        self._it_cat()
        self._same_shape()

    def _times(self) -> VGroup:
        return style.text("×", style.BODY_SIZE)

    # --- 蘋果 ---------------------------------------------------------------------------
    def _apple(self) -> None:
        ex = self.data.eat_apple
        weights = ex.last_row.weights[0]
        rows = VGroup()
        for j in range(ex.short):
            w = ShownNumber(
                weights[j],
                2,
                Ref(f"{EAT}.last_row.weights[0][{j}]"),
                style.LABEL_SIZE,
                style.HIGHLIGHT,
            )
            v = NumberVector(ex.v[j], f"{EAT}.v[{j}]", f"v（{ex.tokens[j]}）", style.VALUE)
            term = NumberVector(ex.contributions[j], f"{EAT}.contributions[{j}]")
            rows.add(
                VGroup(w, self._times(), v, style.text("=", style.BODY_SIZE), term).arrange(
                    RIGHT, buff=style.ITEM_BUFF
                )
            )
        rows.arrange(DOWN, aligned_edge=RIGHT, buff=style.ROW_BUFF)
        total = NumberVector(
            ex.last_row.outputs[0],
            f"{EAT}.last_row.outputs[0]",
            self.words["new_apple"],
            style.QUERY,
        )
        total.next_to(rows, DOWN, buff=style.GROUP_BUFF).align_to(rows, RIGHT)
        VGroup(rows, total).next_to(self.title, DOWN, buff=style.GROUP_BUFF)
        for j, row in enumerate(rows):
            self.say(f"take_{j}", FadeIn(row), w=row[0], token=ex.tokens[j])  # row[0]: its weight
        self.say("sum", FadeIn(total), FadeIn(SurroundingRectangle(total, buff=style.HUG_BUFF)))
        self.say("apple_meaning")
        self.clear_below_title(self.title)

    # --- it -> cat ---------------------------------------------------------------------
    def _it_cat(self) -> None:
        c = self.data.it_cat
        it = c.query_index
        order = sorted(range(len(c.tokens)), key=lambda j: -c.scaled.weights[it][j])[:2]
        terms = VGroup()
        for j in order:
            w = ShownNumber(
                c.scaled.weights[it][j],
                2,
                Ref(f"{IT}.scaled.weights[{it}][{j}]"),
                style.LABEL_SIZE,
                style.HIGHLIGHT,
            )
            v = NumberVector(c.v[j], f"{IT}.v[{j}]", f"v({c.tokens[j]})", style.VALUE)
            terms.add(VGroup(w, self._times(), v).arrange(RIGHT, buff=style.ITEM_BUFF))
        terms.add(style.text(self.words["and_the_rest"], style.LABEL_SIZE, style.MUTED))
        terms.arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        out = NumberVector(
            c.scaled.outputs[it], f"{IT}.scaled.outputs[{it}]", self.words["new_it"], style.QUERY
        )
        dims = VGroup(
            *(style.text(d, style.SMALL_SIZE, style.MUTED) for d in self.words["dims"].split(","))
        )
        for d, entry in zip(dims, out.entries, strict=True):
            d.next_to(entry, DOWN, buff=style.ITEM_BUFF)
        block = VGroup(terms, VGroup(out, dims)).arrange(
            DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT
        )
        block.next_to(self.title, DOWN, buff=style.GROUP_BUFF)
        cat = c.index("cat")
        cat_share = Spoken(c.scaled.weights[it][cat], 2, Ref(f"{IT}.scaled.weights[{it}][{cat}]"))
        self.say("it_terms", FadeIn(terms), w=cat_share)
        self.say("it_output", FadeIn(out), FadeIn(dims))
        self.say("it_axis", FadeIn(SurroundingRectangle(VGroup(out.entries[0], dims[0]))))
        self.say("caveat")
        self.clear_below_title(self.title)

    # --- n in, n out -------------------------------------------------------------------
    def _same_shape(self) -> None:
        ex = self.data.eat_apple
        n = ex.short
        tokens = VGroup(*(style.text(t, style.BODY_SIZE) for t in ex.tokens[:n]))
        tokens.arrange(DOWN, buff=style.ROW_BUFF)
        outputs = AttentionGrid(
            ex.short_full.outputs, f"{EAT}.short_full.outputs", cell_size=0.7, heat=False
        )
        outputs.cells.set_stroke(style.QUERY, width=2)
        arrow = style.text("→", style.TITLE_SIZE)
        picture = VGroup(tokens, arrow, outputs).arrange(RIGHT, buff=style.SECTION_BUFF)
        picture.next_to(self.title, DOWN, buff=style.WIDE_BUFF)
        self.say("shape", FadeIn(tokens), FadeIn(arrow), FadeIn(outputs), n=n)
        self.say("outro")
