"""Softmax (seeds 002, 003): one row of scores becomes shares of one; then temperature T.

Render alone with ``manim -ql scenes/chapters/softmax.py Softmax``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    LaggedStart,
    MathTex,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import ExpCurve, Knob
from scenes.kit.labels import vertical_label
from scenes.kit.maps import AttentionGrid, word_grid
from scenes.kit.numbers import Mean, Ratio, Ref, Spoken, Sum, phrase
from scenes.kit.vectors import WeightBars

EAT = "tokens.eat_apple"
ROW = f"{EAT}.last_row"
IT = "tokens.it_cat"
OFFICE = "office.sweep[0].scores"  # the office's first scores: some of them negative
EXP_BAR = 4.4  # the exps laid end to end
UNIT_BAR = 3.4  # the bar of length 1 they are divided into
BAR_HEIGHT = 0.45
TABLE_SCALE = 0.85  # the score table, moved aside (its numbers stay 20 px high)
ONE_ROOM = 2.0  # right of the unit bar: its total


class Softmax(LectureScene):
    """exp, the sum, the division: a row that sums to 1; then the T knob on it -> cat."""

    scene_key = "softmax"
    reads = ("tokens.eat_apple", "tokens.it_cat", "office.sweep[0].scores")  # literals
    tables = ("scoring",)

    def construct(self) -> None:
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        self._one_row()
        self._temperature()

    # --- one row -----------------------------------------------------------------------
    def _score_table(self) -> tuple[AttentionGrid, VGroup]:
        """scoring's last picture: the 3×3 score table, rows looking, columns looked at."""
        ex, words = self.data.eat_apple, self.shared("scoring")
        tokens = self.apple_words()[: ex.short]
        grid = word_grid(
            ex.short_full.scores, f"{EAT}.short_full.scores", tokens, cell_size=1.0, heat=False
        )
        key_axis = style.text(words["key_axis"], style.SMALL_SIZE, style.KEY)
        key_axis.next_to(grid.col_headers, UP, buff=style.ITEM_BUFF)
        query_axis = vertical_label(words["query_axis"], style.LABEL_SIZE, style.QUERY)
        query_axis.next_to(grid.row_headers, LEFT, buff=style.ITEM_BUFF)
        return grid, VGroup(grid, key_axis, query_axis)

    def _segments(
        self, values, length: float, fill, opacity: float, height: float = BAR_HEIGHT
    ) -> VGroup:
        """``values`` as pieces of one bar, laid end to end (the bar as long as ``length``)."""
        total = sum(values)
        pieces = VGroup(
            *(
                Rectangle(width=length * v / total, height=height)
                .set_fill(fill, opacity=opacity)
                .set_stroke(style.BACKGROUND, width=3)
                for v in values
            )
        )
        return pieces.arrange(RIGHT, buff=0)

    def _one_row(self) -> None:
        ex = self.data.eat_apple
        row, i, n = ex.last_row, ex.query_index, ex.short
        office = self.data.value(Ref(OFFICE))
        grid, table = self._score_table()
        lo = math.floor(min(*office, *row.scores[0]))
        hi = max(*office, *row.scores[0]) + 0.4
        curve = ExpCurve(row.scores[0], row.exps[0], f"{ROW}.scores[0]", f"{ROW}.exps[0]", (lo, hi))
        x_name = style.text(self.words["scores_label"], style.LABEL_SIZE, style.MUTED)
        x_name.next_to(curve.axes.x_axis, DOWN, buff=style.GROUP_BUFF).align_to(
            curve.axes.x_axis, RIGHT
        )
        y_name = style.text(self.words["exp_label"], style.LABEL_SIZE, style.MUTED)
        y_name.next_to(curve.axes.y_axis, UP, buff=style.ITEM_BUFF)
        others = curve.marks_on_x(office, OFFICE, above=True, opacity=0.5)

        # The right panel: the score table, smaller, at the top; the bar of length 1 (the
        # target) at the bottom; once the table has gone, the bars take the panel.
        small = table.copy().scale(TABLE_SCALE)
        unit = Rectangle(width=UNIT_BAR, height=BAR_HEIGHT).set_stroke(style.FOREGROUND, width=2)
        one_mark = style.tick_label("1").next_to(unit, RIGHT, buff=style.ITEM_BUFF)
        unit_name = style.text(self.words["shares_label"], style.LABEL_SIZE)
        unit_name.next_to(unit, UP, buff=style.ITEM_BUFF).align_to(unit, LEFT)
        target = VGroup(unit, one_mark, unit_name)
        exp_bar = self._segments(row.exps[0], EXP_BAR, style.FOREGROUND, 0.55)
        exp_name = style.text(self.words["exp_label"], style.LABEL_SIZE)
        exp_sum = self.number(Sum(f"{ROW}.exps[0]"), 2)
        total = phrase(
            self.with_sign("total", row.exps[0], exp_sum.value, 2), style.LABEL_SIZE, total=exp_sum
        )
        head = VGroup(exp_name, total).arrange(RIGHT, buff=style.GROUP_BUFF)
        exp_row = VGroup(head, exp_bar).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        total.align_to(exp_bar, RIGHT)
        # the unit bar's final place: the token names over it, the weights under it
        spacer = Rectangle(width=UNIT_BAR, height=BAR_HEIGHT + 2 * (style.ITEM_BUFF + 0.3))
        bars = VGroup(exp_row, spacer).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        room = Rectangle(width=max(bars.width, UNIT_BAR + ONE_ROOM), height=0.01)
        right = VGroup(small, room).arrange(DOWN, aligned_edge=LEFT, buff=0)
        stage = VGroup(VGroup(curve, x_name, y_name, others), right)
        stage.arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        style.place(stage)
        fit = small.height / (table.height * TABLE_SCALE)
        _, bottom, _, top = style.content_area()
        bars.scale(fit).align_to(small, LEFT).set_y((bottom + top) / 2)
        target.scale(fit).align_to(small, LEFT)
        target.shift(UP * (bottom + style.TIGHT_BUFF - target.get_bottom()[1]))
        self.unit_place = spacer.get_center()
        style.place(table, aligned=RIGHT)  # where scoring left it: beside its working

        self.add(table)
        self.say(
            "intro",
            table.animate.become(small),
            Create(curve.axes),
            FadeIn(curve.zero, x_name),
            *(TransformFromCopy(grid.get_number(i, j), curve.get_score(j)[1]) for j in range(n)),
            FadeIn(VGroup(*(curve.get_score(j)[0] for j in range(n)))),
            beats={
                "neg": [FadeIn(others, lag_ratio=0.15)],
                "target": [Create(unit), FadeIn(one_mark, unit_name)],
            },
        )
        looks = VGroup(grid.row_headers[i], *(grid.get_number(i, j) for j in range(n)))
        self.row_frame = SurroundingRectangle(looks, color=style.QUERY, buff=style.HUG_BUFF)
        self.say("scores", Create(self.row_frame), token=self.apple_words()[i])
        self._exp(curve, others, table, y_name)
        self._shares(curve, exp_bar, exp_name, total, target)

    def _exp(self, curve: ExpCurve, others: VGroup, table: VGroup, y_name) -> None:
        """Each score rises to y = eˣ; even a negative one lands above 0; +1 on x is ×e on y."""
        row = self.data.eat_apple.last_row
        office = self.data.value(Ref(OFFICE))
        top = max(range(len(row.scores[0])), key=row.scores[0].__getitem__)
        second = sorted(range(len(row.scores[0])), key=row.scores[0].__getitem__)[-2]
        negatives = VGroup(*(curve.rise_from(v) for v in office if v < 0))
        negatives.set_opacity(0.6)
        step = curve.step(
            row.scores[0][top] - 1, MathTex("+1", font_size=40), MathTex(r"\times e", font_size=40)
        )
        step[1].gate_not_measured = True  # the step of the rule, not a measured number
        ratio = self.number(Ratio(f"{ROW}.exps[0]", top, second), 2, style.LABEL_SIZE)
        times = VGroup(MathTex(r"\times", font_size=36), ratio).arrange(RIGHT, buff=0.08)
        above = curve.axes.get_area(curve.curve, color=style.HIGHLIGHT, opacity=0.25)
        self.say(
            "exp",
            FadeOut(table, self.row_frame),
            Create(curve.curve),
            FadeIn(curve.formula, y_name),
            then=[
                [LaggedStart(*(curve.rise(k) for k in range(len(row.scores[0]))), lag_ratio=0.4)]
            ],
            beats={
                "pos": [
                    LaggedStart(*(Create(r[0]) for r in negatives), lag_ratio=0.3),
                    FadeIn(above),  # everything under the curve lies above 0
                ],
                "gap": [FadeOut(above), Create(step[0]), FadeIn(step[1:])],
                "ratio": [FadeOut(step), curve.mark_gap(second, top, times)],
            },
        )
        self.negatives = negatives

    def _shares(self, curve, exp_bar, exp_name, total, target) -> None:
        """The exps end to end, then divided into the bar of length 1: the weights."""
        ex = self.data.eat_apple
        row = ex.last_row
        rises = [curve.get_rise(k)[0][0] for k in range(len(row.exps[0]))]
        exp_sum = total[-1]
        unit = target[0]
        self.say(
            "sum",
            *(TransformFromCopy(r, piece) for r, piece in zip(rises, exp_bar, strict=True)),
            FadeIn(exp_name),
            target.animate.shift(self.unit_place - unit.get_center()),
            then=[[FadeIn(total)]],
            total=exp_sum,
        )
        weights = self._segments(row.weights[0], unit.width, style.WEIGHT, 1.0, unit.height)
        weights.move_to(self.unit_place)
        tokens = self.apple_words()[: ex.short]
        names = VGroup(
            *(
                style.text(t, style.LABEL_SIZE, style.KEY).next_to(p, UP, buff=style.ITEM_BUFF)
                for t, p in zip(tokens, weights, strict=True)
            )
        )
        numbers = VGroup(
            *(
                self.number(f"{ROW}.weights[0][{k}]", 2).next_to(p, DOWN, buff=style.ITEM_BUFF)
                for k, p in enumerate(weights)
            )
        )
        top = max(range(len(row.weights[0])), key=row.weights[0].__getitem__)
        frame = SurroundingRectangle(weights[top], buff=style.HUG_BUFF)
        self.say(
            "divide",
            FadeOut(target[2]),
            ReplacementTransform(exp_bar.copy(), weights),
            then=[[FadeIn(names), FadeIn(numbers)], [Create(frame)]],
            token=self.apple_words()[top],
            top=self.spoken(f"{ROW}.weights[0][{top}]", 2),
        )
        weight_sum = self.number(Sum(f"{ROW}.weights[0]"), 2)
        one = phrase(
            self.with_sign("total", row.weights[0], weight_sum.value, 2),
            style.LABEL_SIZE,
            total=weight_sum,
        )
        one.next_to(unit, RIGHT, buff=style.ITEM_BUFF)
        whole = SurroundingRectangle(VGroup(unit, one), buff=style.HUG_BUFF)
        self.say(
            "one",
            FadeOut(frame, target[1]),
            TransformFromCopy(numbers, one[-1]),
            FadeIn(one[:-1]),
            beats={"only": [Create(whole)]},
        )
        self._whole_map(weights, numbers)

    def _whole_map(self, pieces: VGroup, numbers: VGroup) -> None:
        """The row just computed travels into its place in the whole map."""
        ex = self.data.eat_apple
        tokens = self.apple_words()[: ex.short]
        whole = word_grid(
            ex.short_full.weights,
            f"{EAT}.short_full.weights",
            tokens,
            cell_size=1.2,
            heat=True,
            header_size=style.BODY_SIZE,
            text_size=style.BODY_SIZE,
        )
        style.place(whole)
        i = ex.query_index
        others = VGroup(*(whole.get_row(r) for r in range(ex.short) if r != i))
        cols = range(ex.short)
        kept = {id(m) for m in (self.title, *pieces, *numbers)}
        rest = [m for m in self.mobjects if id(m) not in kept]
        self.say(
            "map",
            *(FadeOut(m) for m in rest),
            TransformFromCopy(pieces, VGroup(*(whole.get_cell(i, j) for j in cols))),
            TransformFromCopy(numbers, VGroup(*(whole.get_number(i, j) for j in cols))),
            FadeOut(pieces),
            FadeOut(numbers),
            then=[[FadeIn(others, lag_ratio=0.2), FadeIn(whole.row_headers, whole.col_headers)]],
        )
        self.map = whole

    # --- temperature -------------------------------------------------------------------
    def _bars(self, k: int) -> VGroup:
        c = self.data.it_cat
        it = c.query_index
        temp = c.temperatures[k]
        source = f"{IT}.temperatures[{k}].weights[{it}]"
        labels = [style.text(t, style.BODY_SIZE, style.KEY) for t in c.tokens]
        bars = WeightBars(labels, temp.weights[it], source, length=5.0, bar_height=0.42)
        weight_sum = self.number(Sum(source), 2)
        line = self.with_sign("total", temp.weights[it], weight_sum.value, 2)
        total = phrase(line, total=weight_sum)
        group = VGroup(bars, total.next_to(bars, RIGHT, buff=style.WIDE_BUFF))
        group.total = total
        return group

    def _reading(self, knob: Knob, k: int) -> VGroup:
        """The knob's setting at the k-th temperature, written under the knob."""
        t = self.number(f"{IT}.temperatures[{k}].t", 2, style.BODY_SIZE)
        reading = phrase(self.words["t_line"], style.BODY_SIZE, style.HIGHLIGHT, t=t)
        return reading.move_to(knob.name)

    def _it_cat(self, k: int) -> Spoken:
        """The it -> cat weight at the k-th temperature, as the narration says it."""
        c = self.data.it_cat
        it, cat = c.query_index, c.referent
        return self.spoken(f"{IT}.temperatures[{k}].weights[{it}][{cat}]", 2)

    def _layout(self, knob: Knob, formula: VGroup, bars: VGroup, looker) -> None:
        """The knob and its formula on the left, the looking word's bars on the right."""
        left = VGroup(knob, formula).arrange(DOWN, buff=style.GROUP_BUFF)
        right = VGroup(looker, bars).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        style.place(VGroup(left, right).arrange(RIGHT, buff=style.WIDE_BUFF))

    def _temperature(self) -> None:
        c = self.data.it_cat
        temps = [t.t for t in c.temperatures]
        usual_k = temps.index(1.0)
        words = {0: "t_low", usual_k: "t_mid", len(temps) - 1: "t_high"}
        knob = Knob(len(temps), "T", at=usual_k)
        formula = MathTex(r"\mathrm{softmax}(\mathrm{score} / T)", font_size=44)
        shown_t = self.number(f"{IT}.temperatures[{usual_k}].t", 2, style.BODY_SIZE)
        usual = phrase(self.words["t_line"], style.BODY_SIZE, style.HIGHLIGHT, t=shown_t)
        side = VGroup(formula, usual).arrange(DOWN, buff=style.ITEM_BUFF)
        shown = self._bars(0)
        looker = style.text(f"{c.tokens[c.query_index]} →", style.BODY_SIZE, style.QUERY)
        self._layout(knob, side, shown, looker)
        self.fit = shown.width / self._bars(0).width  # the layout's scale, for every stop
        sentence = VGroup(*(style.text(t, style.TITLE_SIZE) for t in c.tokens))
        sentence.arrange(RIGHT, buff=style.GROUP_BUFF).move_to(shown[0])
        it_frame = SurroundingRectangle(sentence[c.query_index], color=style.QUERY)
        cat_frame = SurroundingRectangle(sentence[c.referent], color=style.HIGHLIGHT)
        self.say(
            "t_intro",
            self.map.animate.set_opacity(style.DIMMED)
            .scale(min(1.0, shown.height / self.map.height))
            .move_to(shown[0]),
            FadeIn(knob),
            beats={
                "divide": [FadeIn(formula)],
                "one": [FadeIn(usual, shift=LEFT * style.ITEM_BUFF)],
                "sentence": [FadeOut(self.map), FadeIn(sentence, lag_ratio=0.2)],
                "plain": [Create(it_frame), Create(cat_frame)],
            },
        )
        # The formula goes first; then the sentence's words fall into place as the bars' labels.
        rows = shown[0].rows
        cat_bar = rows[c.referent]
        outline = SurroundingRectangle(VGroup(cat_bar[1], cat_bar[3]), buff=style.HUG_BUFF)
        reading = self._reading(knob, 0)  # the knob's setting, under it, from here on
        self.say(
            words[0],
            FadeOut(side, it_frame, cat_frame),
            knob.turn(0),
            FadeOut(knob.name),
            FadeIn(reading),
            then=[
                [
                    *(
                        ReplacementTransform(word, row[0])
                        for word, row in zip(sentence, rows, strict=True)
                    ),
                    FadeIn(VGroup(*(row[1:] for row in rows)), shown[1], looker),
                ]
            ],
            beats={"top": [Create(outline)]},
            w=self._it_cat(0),
        )
        share = self._even_share(shown)
        for k in range(1, len(temps)):
            new = self._bars(k).scale(self.fit).move_to(shown, aligned_edge=LEFT)
            reading, was = self._reading(knob, k), reading
            step = [
                ReplacementTransform(shown, new),
                knob.turn(k),
                ReplacementTransform(was, reading),
            ]
            if k in words:
                then = [[FadeIn(share[0]), FadeIn(share[1])]] if k == len(temps) - 1 else []
                w = self._it_cat(k) if k != len(temps) - 1 else None
                self.say(words[k], *step, then=then, **({"w": w} if w else {}))
            else:
                self.play(*step, run_time=1.2)
                self.wait(0.4)
            shown = new
        back = []  # the knob swept back to T = 1, the bars re-split, the total unchanged
        for k in range(len(temps) - 2, usual_k - 1, -1):
            new = self._bars(k).scale(self.fit).move_to(shown, aligned_edge=LEFT)
            reading, was = self._reading(knob, k), reading
            back.append(
                [ReplacementTransform(shown, new), knob.turn(k), ReplacementTransform(was, reading)]
            )
            shown = new
        frame = SurroundingRectangle(shown.total, buff=style.HUG_BUFF)
        self.say("t_sum", *back[0], then=[*back[1:], [Create(frame)]])

    def _even_share(self, shown: VGroup) -> VGroup:
        """A dashed line through the bars at 1/n, every word's share when all are equal."""
        c = self.data.it_cat
        it, n = c.query_index, len(c.tokens)
        rows = shown[0].rows
        last = len(c.temperatures) - 1
        source = Mean(f"{IT}.temperatures[{last}].weights[{it}]", tuple(range(n)))
        track = rows[0][1]
        x = track.get_left()[0] + track.width / n
        line = DashedLine(
            [x, rows[0].get_top()[1] + style.ITEM_BUFF, 0],
            [x, rows[-1].get_bottom()[1] - style.ITEM_BUFF, 0],
            color=style.HIGHLIGHT,
        )
        label = phrase(
            self.words["even_line"], style.LABEL_SIZE, style.HIGHLIGHT, share=self.number(source, 2)
        )
        label.next_to(line, DOWN, buff=style.HUG_BUFF)
        return VGroup(line, label)
