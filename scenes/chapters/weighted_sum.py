"""The weighted sum of V (seeds 003, 002): shares times values, added into a new vector.

蘋果's shares travel onto the V rows; the three parts add up to the attention output,
which is mostly "eating"; added back to 蘋果's own vector (the residual connection) it is
food that is being eaten. Then it -> cat (where V = K), and n positions in, n out.
Render alone with ``manim -ql scenes/chapters/weighted_sum.py WeightedSum``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    ManimColor,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, Sentence, top_index
from scenes.kit.maps import AttentionGrid, fit_column_labels
from scenes.kit.numbers import sum_sign
from scenes.kit.vectors import NumberVector

EAT = "tokens.eat_apple"
IT = "tokens.it_cat"
BIG = style.BODY_SIZE
SHARE_CELL = 0.9  # a cell of the shares row
SHARES_WIDTH = 3.0  # the most the shares row takes: cells shrink for more words


class WeightedSum(LectureScene):
    """b = sum_j w_j v_j for 蘋果, then x + b; it ≈ 0.83 v(cat) + ...; n in, n out."""

    scene_key = "weighted_sum"
    reads = ("tokens.eat_apple", "tokens.it_cat")

    def construct(self) -> None:
        self.title = self.make_title()
        self.ex = self.data.eat_apple
        self._apple()
        self._residual()
        self.clear_below_title(self.title)
        self._it_cat()
        self._same_shape()

    def _symbol(self, text: str) -> VGroup:
        return style.text(text, style.BODY_SIZE)

    def _vector(
        self,
        values,
        source: str,
        label: str,
        colour: ManimColor | None = None,  # None: the theme's text colour when drawn
        size: float = style.LABEL_SIZE,
    ) -> NumberVector:
        return NumberVector(values, source, label, colour, size=size)

    def _dims(self, vector: NumberVector, sentence: Sentence) -> VGroup:
        names = self.dim_names(sentence)
        return fit_column_labels(
            VGroup(
                *(
                    style.text(name, style.SMALL_SIZE, style.MUTED).next_to(entry, UP, buff=0.3)
                    for name, entry in zip(names, vector.entries, strict=True)
                )
            )
        )

    # --- 蘋果 ---------------------------------------------------------------------------
    def _apple(self) -> None:
        ex, n = self.ex, self.ex.short
        words = self.apple_words()[:n]
        weights = ex.last_row.weights[0]
        shares = AttentionGrid(
            [weights],
            f"{EAT}.last_row.weights",
            col_headers=[style.text(t, style.LABEL_SIZE, style.KEY) for t in words],
            cell_size=min(SHARE_CELL, SHARES_WIDTH / n),
        )
        rows = VGroup()
        for j in range(n):
            w = self.number(f"{EAT}.last_row.weights[0][{j}]", 2, style.BODY_SIZE)
            v = self._vector(ex.v[j], f"{EAT}.v[{j}]", self.apple_label("v", j), style.VALUE)
            term = self._vector(ex.contributions[j], f"{EAT}.contributions[{j}]", "")
            rows.add(
                VGroup(w, self._symbol("×"), v, self._symbol("="), term).arrange(
                    RIGHT, buff=style.ITEM_BUFF
                )
            )
        rows.arrange(DOWN, aligned_edge=RIGHT, buff=style.SECTION_BUFF)
        self.output = self._vector(
            ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", self.words["output"]
        )
        self.output.next_to(rows, DOWN, buff=style.SECTION_BUFF).align_to(rows, RIGHT)
        adds_up = all(  # each dimension: the terms as shown add up to the output as shown
            sum_sign([t[c] for t in ex.contributions], total, 2) == "="
            for c, total in enumerate(ex.last_row.outputs[0])
        )
        dims = VGroup(self._dims(rows[0][2], ex), self._dims(rows[0][4], ex))
        picture = VGroup(shares, VGroup(dims, rows, self.output)).arrange(
            RIGHT, buff=style.WIDE_BUFF * 1.5
        )
        sign = self._symbol("=" if adds_up else "≈").next_to(self.output, LEFT)
        style.place(picture.add(sign))
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(shares), FadeIn(dims))
        for j, row in enumerate(rows):
            line = (
                "take_self" if j == ex.query_index else "take_picked" if j == ex.target else "take"
            )
            self.say(
                line,
                TransformFromCopy(shares.get_number(0, j), row[0]),
                FadeIn(row[1:4]),
                then=[[TransformFromCopy(row[2], row[4])]],
                w=row[0],
                token=self.apple_words()[j],
                carries=self.dim_names(ex)[top_index(ex.v[j])],
            )
        box = SurroundingRectangle(self.output, buff=style.HUG_BUFF, color=style.RESULT)
        self.say(
            "sum",
            TransformFromCopy(VGroup(*(r[4] for r in rows)), self.output),
            FadeIn(box),
            FadeIn(sign),
            n=str(n),
        )
        eat = max(range(ex.d), key=lambda c: ex.last_row.outputs[0][c])
        frame = SurroundingRectangle(self.output.get_entry(eat), color=style.HIGHLIGHT)
        own = top_index(ex.x[ex.query_index])  # the asker's own meaning: from its own V
        own_frame = SurroundingRectangle(self.output.get_entry(own), color=style.HIGHLIGHT)
        self.say(
            "output_meaning",
            FadeIn(frame),
            beats={
                "own": [Create(own_frame), Indicate(rows[ex.query_index][4], color=style.HIGHLIGHT)]
            },
            eat=self.output.get_entry(eat),
            brings_from=self._comes_from(eat),
            meaning_from=self._comes_from(own),
        )
        self.apple_parts = VGroup(shares, dims, rows, box, frame, own_frame)

    def _comes_from(self, column: int) -> str:
        """Where the output's ``column`` comes from: entirely the asker's own V (every other
        share shows 0.00, its own does not), mostly its own (its share is larger than the
        others' together), or mostly the other words'."""
        ex, i = self.ex, self.ex.query_index
        others = [row[column] for j, row in enumerate(ex.contributions) if j != i]
        own = ex.contributions[i][column]
        if round(abs(own), 2) > 0 and all(round(abs(share), 2) == 0 for share in others):
            return self.words["all_own"]
        return self.words["from_self" if abs(own) > sum(map(abs, others)) else "from_others"]

    def _residual(self) -> None:
        """x(蘋果) + the attention output = 蘋果's new vector (the residual connection)."""
        ex, i = self.ex, self.ex.query_index
        x = self._vector(ex.x[i], f"{EAT}.x[{i}]", self.apple_label("x", i), size=BIG)
        output = self._vector(
            ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", self.words["output"], size=BIG
        )
        new_label = self.words.format("new_apple", asker=self.apple_words()[i])
        new = self._vector(ex.residual, f"{EAT}.residual", new_label, size=BIG)
        column = VGroup(x, output, new).arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=RIGHT)
        signs = VGroup(self._symbol("+"), self._symbol("="))
        for sign, vector in zip(signs, (output, new), strict=True):
            sign.next_to(column, LEFT, buff=style.GROUP_BUFF).match_y(vector)
        rule = Line(x.get_left(), x.get_right(), color=style.MUTED).next_to(
            new, UP, buff=style.GROUP_BUFF / 2, coor_mask=UP
        )
        dims = self._dims(x, ex)
        style.place(VGroup(dims, column, signs, rule))
        box = SurroundingRectangle(new, buff=style.HUG_BUFF, color=style.RESULT)
        self.say(
            "residual",
            FadeOut(self.apple_parts),
            ReplacementTransform(self.output, output),
            FadeIn(VGroup(x, signs, rule, dims)),
            beats={"add": [TransformFromCopy(VGroup(x, output), new), FadeIn(box)]},
        )
        food = max(range(ex.d), key=lambda c: ex.x[i][c])
        eat = max(range(ex.d), key=lambda c: ex.last_row.outputs[0][c])
        frames = VGroup(
            SurroundingRectangle(new.get_entry(food), color=style.HIGHLIGHT),
            SurroundingRectangle(new.get_entry(eat), color=style.HIGHLIGHT),
        )
        self.say("apple_meaning", FadeIn(frames, lag_ratio=0.5))

    # --- it -> cat ---------------------------------------------------------------------
    def _it_cat(self) -> None:
        c = self.data.it_cat
        it = c.query_index
        order = sorted(range(len(c.tokens)), key=lambda j: -c.scaled.weights[it][j])[:2]
        terms = VGroup()
        for j in order:
            w = self.number(f"{IT}.scaled.weights[{it}][{j}]", 2, style.TITLE_SIZE)
            v = self._vector(c.v[j], f"{IT}.v[{j}]", f"v({c.tokens[j]})", style.VALUE, BIG)
            terms.add(VGroup(w, self._symbol("×"), v).arrange(RIGHT, buff=style.ITEM_BUFF))
        terms.add(style.text(self.words["and_the_rest"], style.BODY_SIZE, style.MUTED))
        terms.arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        note = style.text(self.words["v_is_k"], style.BODY_SIZE, style.VALUE)
        new_label = self.words.format("new_it", pronoun=c.tokens[it])
        out = self._vector(c.scaled.outputs[it], f"{IT}.scaled.outputs[{it}]", new_label, size=BIG)
        dims = self._dims(out, c)
        hand = style.text(self.words["hand_made"], style.LABEL_SIZE, style.MUTED)
        hand.next_to(out, DOWN, buff=style.ITEM_BUFF).align_to(out, RIGHT)
        block = VGroup(note, terms, VGroup(dims, out, hand)).arrange(
            DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT
        )
        style.place(block)
        cat = c.referent
        cat_share = self.spoken(f"{IT}.scaled.weights[{it}][{cat}]", 2)
        self.say("it_terms", FadeIn(terms, lag_ratio=0.3), w=cat_share)
        self.say(
            "v_is_k_say",
            FadeIn(note),
            Indicate(VGroup(*(t[2] for t in terms[:-1])), color=style.HIGHLIGHT),
            beats={"real": [Circumscribe(note, color=style.HIGHLIGHT)]},
        )
        self.say("it_output", TransformFromCopy(terms, out), FadeIn(dims))
        axis = top_index(c.scaled.outputs[it])
        entity = SurroundingRectangle(
            VGroup(out.get_entry(axis), dims[axis]), color=style.HIGHLIGHT
        )
        self.say("it_axis", FadeIn(entity))
        self.say(
            "caveat",
            FadeIn(hand),
            beats={"not": [Indicate(terms[0][0], color=style.HIGHLIGHT)]},
        )
        self.clear_below_title(self.title)

    # --- n in, n out -------------------------------------------------------------------
    def _same_shape(self) -> None:
        ex = self.ex
        n = ex.short
        tokens = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.apple_words()[:n]))
        tokens.arrange(DOWN, buff=style.WIDE_BUFF * 0.6)
        outputs = AttentionGrid(
            ex.short_full.outputs,
            f"{EAT}.short_full.outputs",
            cell_size=0.9,
            heat=False,
            text_size=style.LABEL_SIZE,
        )
        outputs.cells.set_stroke(style.RESULT, width=2)
        label = style.text(self.words["outputs"], style.BODY_SIZE, style.RESULT)
        label.next_to(outputs, UP, buff=style.ITEM_BUFF)
        picture = VGroup(tokens, VGroup(outputs, label)).arrange(RIGHT, buff=4.0)
        style.place(picture)
        links = VGroup(
            *(
                Line(
                    tokens[j].get_right() + RIGHT * style.ITEM_BUFF,
                    outputs.get_row(i).get_left() + LEFT * style.ITEM_BUFF,
                    stroke_width=1 + 6 * ex.short_full.weights[i][j],
                    color=style.WEIGHT,
                ).set_opacity(0.25 + 0.75 * ex.short_full.weights[i][j])
                for i in range(n)
                for j in range(n)
            )
        )
        self.say("shape", FadeIn(tokens), FadeIn(VGroup(outputs, label)), n=n)
        self.say(
            "outro",
            FadeIn(links, lag_ratio=0.1),
            beats={
                "avg": [Indicate(outputs, scale_factor=1.03, color=style.HIGHLIGHT)],
                "this": [Circumscribe(VGroup(tokens, outputs), color=style.HIGHLIGHT)],
            },
            run_time=2,
        )
        self.play(FadeOut(VGroup(tokens, outputs, label, links)))
