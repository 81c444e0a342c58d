"""Softmax (seeds 002, 003): one row of scores becomes shares of one; then temperature T.

Render alone with ``manim -ql scenes/chapters/softmax.py Softmax``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Circumscribe,
    FadeIn,
    FadeOut,
    Indicate,
    MathTex,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Spoken, Sum, phrase
from scenes.kit.vectors import WeightBars

EAT = "tokens.eat_apple"
CELL = 1.4
CELL_TEXT = style.BODY_SIZE
IT = "tokens.it_cat"


class Softmax(LectureScene):
    """exp, the sum, the division: a row that sums to 1; then the T knob on it -> cat."""

    scene_key = "softmax"
    reads = ("tokens.eat_apple", "tokens.it_cat")

    def construct(self) -> None:
        self.title = self.make_title()
        self._one_row()
        self._temperature()

    # --- one row -----------------------------------------------------------------------
    def _row(self, values, source: str, heat: bool, headers: bool = False) -> AttentionGrid:
        tokens = self.apple_words()[: self.data.eat_apple.short]
        cols = [style.text(t, style.BODY_SIZE, style.KEY) for t in tokens] if headers else None
        return AttentionGrid(
            [values], source, col_headers=cols, cell_size=CELL, heat=heat, text_size=CELL_TEXT
        )

    def _one_row(self) -> None:
        ex = self.data.eat_apple
        row = ex.last_row
        scores = self._row(row.scores[0], f"{EAT}.last_row.scores", heat=False, headers=True)
        exps = self._row(row.exps[0], f"{EAT}.last_row.exps", heat=False)
        weights = self._row(row.weights[0], f"{EAT}.last_row.weights", heat=True)
        rows = VGroup(scores, exps, weights).arrange(DOWN, buff=style.GROUP_BUFF)
        labels = VGroup(
            *(
                style.text(self.words[f"{k}_label"], style.BODY_SIZE).next_to(
                    grid.cells, LEFT, buff=style.GROUP_BUFF
                )
                for k, grid in zip(("scores", "exp", "shares"), rows, strict=True)
            )
        )
        exp_sum = self.number(Sum(f"{EAT}.last_row.exps[0]"), 2)
        exp_line = self.with_sign("total", row.exps[0], exp_sum.value, 2)
        total = phrase(exp_line, style.BODY_SIZE, total=exp_sum)
        total.next_to(exps, RIGHT, buff=style.WIDE_BUFF)
        weight_sum = self.number(Sum(f"{EAT}.last_row.weights[0]"), 2)
        one_line = self.with_sign("total", row.weights[0], weight_sum.value, 2)
        one = phrase(one_line, style.BODY_SIZE, total=weight_sum)
        one.next_to(weights, RIGHT, buff=style.WIDE_BUFF)
        style.place(VGroup(rows, labels, total, one))
        top = top_index(row.weights[0])
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(VGroup(scores, labels[0])))
        self.say(
            "scores",
            Indicate(scores.col_headers[ex.query_index], color=style.HIGHLIGHT),
            token=self.apple_words()[ex.query_index],
        )
        self.say(
            "exp",
            FadeIn(exps.cells),
            TransformFromCopy(scores.numbers, exps.numbers),
            FadeIn(labels[1]),
            beats={
                "pos": [Indicate(exps.numbers, color=style.HIGHLIGHT)],
                "gap": [Circumscribe(VGroup(scores.numbers, exps.numbers), color=style.HIGHLIGHT)],
            },
        )
        self.say(
            "sum", TransformFromCopy(exps.numbers, total[-1]), FadeIn(total[:-1]), total=exp_sum
        )
        top_share = self.spoken(f"{EAT}.last_row.weights[0][{top}]", 2)
        self.say(
            "divide",
            FadeIn(weights.cells),
            TransformFromCopy(exps.numbers, weights.numbers),
            FadeIn(labels[2]),
            then=[[Indicate(weights.get_row(0)[top], color=style.HIGHLIGHT)]],
            token=self.apple_words()[top],
            top=top_share,
        )
        self.say(
            "one",
            TransformFromCopy(weights.numbers, one[-1]),
            FadeIn(one[:-1]),
            beats={"only": [Indicate(weights.numbers, color=style.HIGHLIGHT)]},
        )
        self._whole_map(weights, VGroup(scores, exps, labels, total, one))

    def _whole_map(self, weights: AttentionGrid, rest: VGroup) -> None:
        """The row just computed travels into its place in the whole map."""
        ex = self.data.eat_apple
        tokens = self.apple_words()[: ex.short]
        whole = AttentionGrid(
            ex.short_full.weights,
            f"{EAT}.short_full.weights",
            row_headers=[style.text(t, style.BODY_SIZE, style.QUERY) for t in tokens],
            col_headers=[style.text(t, style.BODY_SIZE, style.KEY) for t in tokens],
            cell_size=CELL,
            text_size=CELL_TEXT,
        )
        style.place(whole)
        i = ex.query_index
        others = VGroup(*(whole.get_row(r) for r in range(ex.short) if r != i))
        self.say(
            "map",
            FadeOut(rest),
            ReplacementTransform(weights.get_row(0), whole.get_row(i)),
            then=[
                [
                    FadeIn(others, lag_ratio=0.2),
                    FadeIn(whole.row_headers),
                    FadeIn(whole.col_headers),
                ]
            ],
        )
        self.play(FadeOut(whole))

    # --- temperature -------------------------------------------------------------------
    def _bars(self, k: int) -> VGroup:
        c = self.data.it_cat
        it = c.query_index
        temp = c.temperatures[k]
        source = f"{IT}.temperatures[{k}].weights[{it}]"
        labels = [style.text(t, style.BODY_SIZE, style.KEY) for t in c.tokens]
        bars = WeightBars(labels, temp.weights[it], source, length=6.0, bar_height=0.46)
        shown_t = self.number(f"{IT}.temperatures[{k}].t", 2)
        t = phrase(self.words["t_line"], style.BODY_SIZE, t=shown_t)
        weight_sum = self.number(Sum(source), 2)
        line = self.with_sign("total", temp.weights[it], weight_sum.value, 2)
        total = phrase(line, total=weight_sum)
        side = VGroup(t, total).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        group = VGroup(bars, side.next_to(bars, RIGHT, buff=style.WIDE_BUFF * 1.5))
        group.total = total
        return style.place(group)

    def _it_cat(self, k: int) -> Spoken:
        """The it -> cat weight at the k-th temperature, as the narration says it."""
        c = self.data.it_cat
        it, cat = c.query_index, c.referent
        return self.spoken(f"{IT}.temperatures[{k}].weights[{it}][{cat}]", 2)

    def _temperature(self) -> None:
        c = self.data.it_cat
        temps = [t.t for t in c.temperatures]
        words = {0: "t_low", temps.index(1.0): "t_mid", len(temps) - 1: "t_high"}
        sentence = VGroup(*(style.text(t, style.TITLE_SIZE) for t in c.tokens))
        sentence.arrange(RIGHT, buff=style.GROUP_BUFF)
        knob = MathTex(r"\mathrm{softmax}(\mathrm{score} / T)", font_size=style.SYMBOL_SIZE)
        usual = MathTex(r"T = 1", font_size=style.SYMBOL_SIZE, color=style.HIGHLIGHT)
        formula = VGroup(knob, usual).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(VGroup(formula, sentence).arrange(DOWN, buff=style.SECTION_BUFF))
        shown = self._bars(0)
        self.say(
            "t_intro",
            beats={
                "divide": [Write(knob)],
                "one": [FadeIn(usual, shift=LEFT * style.ITEM_BUFF)],
                "sentence": [FadeIn(sentence, lag_ratio=0.2)],
                "plain": [Indicate(sentence[c.query_index], color=style.HIGHLIGHT)],
            },
        )
        # The sentence's words fall into place as the bars' labels.
        rows = shown[0].rows
        self.say(
            words[0],
            FadeOut(formula),
            *(ReplacementTransform(word, row[0]) for word, row in zip(sentence, rows, strict=True)),
            FadeIn(VGroup(*(row[1:] for row in rows)), shown[1]),
            w=self._it_cat(0),
        )
        for k in range(1, len(temps)):
            new = self._bars(k)
            w = self._it_cat(k)
            if k in words:
                self.say(words[k], ReplacementTransform(shown, new), w=w)
            else:
                self.play(ReplacementTransform(shown, new), run_time=1.2)
                self.wait(0.6)
            shown = new
        self.say("t_sum", Indicate(shown.total, color=style.HIGHLIGHT))
