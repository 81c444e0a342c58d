"""Softmax (seeds 002, 003): one row of scores becomes shares of one; then temperature T.

Render alone with ``manim -ql scenes/chapters/softmax.py Softmax``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    PI,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    CurvedArrow,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    GrowFromEdge,
    LaggedStart,
    Line,
    MathTex,
    Rectangle,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import ExpCurve, Knob
from scenes.kit.maps import AttentionGrid, word_grid
from scenes.kit.numbers import Mean, Ratio, Ref, Spoken, Sum, phrase
from scenes.kit.seams import seam, seam_builder
from scenes.kit.vectors import ShareBar, WeightBars

EAT = "tokens.eat_apple"
ROW = f"{EAT}.last_row"
IT = "tokens.it_cat"
OFFICE = "office.sweep[0].scores"  # the office's first scores: some of them negative
EXP_BAR = 4.4  # the exps laid end to end
UNIT_BAR = 3.4  # the bar of length 1 they are divided into
BAR_HEIGHT = 0.45
TABLE_SCALE = 0.85  # the score table, moved aside
ONE_ROOM = 2.0  # right of the unit bar: its total
CURVE_SIZE = (6.1, 3.4)  # the exp plot: the stage keeps the table's numbers 20 px high
LANE_DROP = 1.2  # the office's scores: a faint lane this far under the x axis
LANE_SHADE = 0.3  # height of the shade over the lane's negative half
SPLIT_BAR = 5.0  # it's bar of length 1, and each word's bar of weight 1
COLUMN, COLUMN_GAP = 0.7, 0.8  # it's scores as columns: their width, the gap between
COLUMN_HEIGHT = 2.6  # the tallest column at T = 1
STEP_WIDTH = 0.2  # the column that steps +1 along the exp curve, in units of score
ROW_BAR = 6.0  # the last picture: each sentence's row of weights, a bar of this length
ROWS_GROW = 1.25  # the last picture, enlarged by up to this to fill the frame
ROWS_TIME = 1.4  # seconds: the last line's beats (the rows' picture forms in three steps)


def spread(labels: VGroup) -> VGroup:
    """Labels each over its own part of a row (a bar's segments, dots on an axis), pushed
    apart left to right where two would touch, the row kept centred where it was."""
    ordered = sorted(labels, key=lambda m: m.get_x())
    wanted = [m.get_x() for m in ordered]
    for before, label in itertools.pairwise(ordered):
        room = before.get_right()[0] + style.HUG_BUFF - label.get_left()[0]
        if room > 0:
            label.shift(RIGHT * room)
    drift = sum(m.get_x() - x for m, x in zip(ordered, wanted, strict=True)) / len(ordered)
    return labels.shift(LEFT * drift)


class Softmax(LectureScene):
    """exp, the sum, the division: a row that sums to 1; then the T knob on it -> cat."""

    scene_key = "softmax"
    reads = ("tokens.eat_apple", "tokens.it_cat", "office.sweep[0].scores")  # literals
    tables = ("scoring",)
    opens_on = "score_table"
    ends_on = "every_row"

    def construct(self) -> None:
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        self._one_row()
        self._temperature()

    # --- one row -----------------------------------------------------------------------
    def _score_table(self) -> tuple[AttentionGrid, VGroup]:
        """scoring's last picture: the 3×3 score table, rows looking, columns looked at."""
        table = seam(self, self.opens_on)
        return table[0], table

    def _one_row(self) -> None:
        ex = self.data.eat_apple
        row, i, n = ex.last_row, ex.query_index, ex.short
        office = self.data.value(Ref(OFFICE))
        grid, table = self._score_table()
        lo = math.floor(min(*office, *row.scores[0]))
        hi = max(*office, *row.scores[0]) + 0.4
        curve = ExpCurve(
            row.scores[0], row.exps[0], f"{ROW}.scores[0]", f"{ROW}.exps[0]", (lo, hi), *CURVE_SIZE
        )
        x_name = style.text(self.words["scores_label"], style.LABEL_SIZE, style.MUTED)
        y_name = style.text(self.words["exp_label"], style.LABEL_SIZE, style.MUTED)
        y_name.next_to(curve.axes.y_axis, UP, buff=style.ITEM_BUFF)
        x_name.next_to(curve.axes.x_axis, RIGHT, buff=style.ITEM_BUFF)
        # the office's scores on a faint lane of their own under the axis, its negative half
        # shaded: two rows that never interleave
        others = curve.marks_on_x(office, OFFICE, opacity=0.5)
        axis = curve.axes.x_axis
        lane = Line(axis.get_left(), axis.get_right()).set_stroke(style.MUTED, width=2)
        below = curve.axes.c2p(lo, 0) - curve.axes.c2p(0, 0)
        negative = Rectangle(width=abs(below[0]), height=LANE_SHADE, stroke_width=0)
        negative.set_fill(style.MUTED, opacity=0.3).move_to(lane).align_to(lane, LEFT)
        lane_zero = style.tick_label("0").set_opacity(0.5).next_to(lane, UP, buff=style.HUG_BUFF)
        lane_zero.set_x(curve.zero.get_x())
        office_lane = VGroup(negative, lane, lane_zero, others).shift(DOWN * LANE_DROP)
        # 蘋果's three dots, named by the words they look at (the table's column headers)
        dot_names = VGroup(
            *(
                style.text(t, style.LABEL_SIZE, style.KEY).next_to(
                    curve.get_score(j)[1], DOWN, buff=style.HUG_BUFF
                )
                for j, t in enumerate(self.apple_words()[:n])
            )
        )
        spread(dot_names)

        # The right panel: the score table, smaller, at the top; the bar of length 1 (the
        # target) at the bottom; once the table has gone, the bars take the panel.
        small = table.copy().scale(TABLE_SCALE)
        unit = Rectangle(width=UNIT_BAR, height=BAR_HEIGHT).set_stroke(style.FOREGROUND, width=2)
        one_mark = style.tick_label("1").next_to(unit, RIGHT, buff=style.ITEM_BUFF)
        unit_name = style.text(self.words["shares_label"], style.LABEL_SIZE)
        unit_name.next_to(unit, UP, buff=style.ITEM_BUFF).align_to(unit, LEFT)
        fill = unit.copy().set_stroke(width=0).set_fill(style.MUTED, opacity=0.35)
        target = VGroup(unit, one_mark, unit_name, fill)
        exp_bar = ShareBar(row.exps[0], EXP_BAR, BAR_HEIGHT)
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
        stage = VGroup(VGroup(curve, x_name, y_name, office_lane, dot_names), right)
        stage.arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        style.place(stage)
        fit = small.height / (table.height * TABLE_SCALE)
        _, bottom, _, top = style.content_area()
        bars.scale(fit).align_to(small, LEFT).set_y((bottom + top) / 2)
        target.scale(fit).align_to(small, LEFT)
        target.shift(UP * (bottom + style.TIGHT_BUFF - target.get_bottom()[1]))
        self.unit_place = spacer.get_center()
        self.add(table)
        row_numbers = VGroup(*(grid.get_number(i, j) for j in range(n)))
        self.say(
            "intro",
            table.animate.become(small),
            Create(curve.axes),
            FadeIn(curve.zero, x_name),
            then=[
                [
                    *(
                        TransformFromCopy(grid.get_number(i, j), curve.get_score(j)[1])
                        for j in range(n)
                    ),
                    *(TransformFromCopy(grid.col_headers[j], dot_names[j]) for j in range(n)),
                    FadeIn(VGroup(*(curve.get_score(j)[0] for j in range(n)))),
                ]
            ],
            beats={
                "neg": [
                    Succession(
                        AnimationGroup(Create(lane), FadeIn(lane_zero)),
                        AnimationGroup(
                            GrowFromEdge(negative, LEFT), FadeIn(others, lag_ratio=0.15)
                        ),
                    )
                ],
                # the whole row of scores becomes the one bar it will be split into
                "target": [ReplacementTransform(row_numbers.copy(), unit), FadeIn(unit_name)],
                # the whole bar, filled: its length is 1
                "whole": [GrowFromEdge(fill, LEFT), FadeIn(one_mark)],
            },
        )
        looks = VGroup(grid.row_headers[i], *(grid.get_number(i, j) for j in range(n)))
        self.row_frame = SurroundingRectangle(looks, color=style.QUERY, buff=style.HUG_BUFF)
        self.say("scores", Create(self.row_frame), token=self.apple_words()[i])
        self._exp(curve, others, table, y_name)
        self.dot_names = dot_names
        self._shares(curve, exp_bar, exp_name, total, target)

    def _exp(self, curve: ExpCurve, others: VGroup, table: VGroup, y_name) -> None:
        """Each score rises to y = eˣ; even a negative one lands above 0; +1 on x is ×e on y."""
        row = self.data.eat_apple.last_row
        office = self.data.value(Ref(OFFICE))
        top = max(range(len(row.scores[0])), key=row.scores[0].__getitem__)
        second = sorted(range(len(row.scores[0])), key=row.scores[0].__getitem__)[-2]
        negatives = VGroup(*(curve.rise_from(v) for v in office if v < 0))
        negatives.set_opacity(0.6)
        # a column as tall as e^x at x0 slides +1 along x, then stretches ×e: it meets the
        # curve again at x0 + 1
        x0 = row.scores[0][top] - 1
        axes = curve.axes
        column = Rectangle(
            width=(axes.c2p(STEP_WIDTH, 0) - axes.c2p(0, 0))[0],
            height=(axes.c2p(x0, math.exp(x0)) - axes.c2p(x0, 0))[1],
        )
        column.set_fill(style.HIGHLIGHT, opacity=0.6).set_stroke(width=0)
        column.move_to(axes.c2p(x0, 0), aligned_edge=DOWN)
        plus = MathTex("+1", font_size=40)
        plus.next_to(axes.c2p(x0 + 0.75, math.exp(x0)), UP, buff=style.ITEM_BUFF)
        plus.gate_not_measured = True  # the step of the rule, not a measured number
        one_on = axes.c2p(x0 + 1, 0) - axes.c2p(x0, 0)
        stretched = column.copy().shift(one_on).stretch(math.e, 1, about_edge=DOWN)
        by_e = MathTex(r"\times e", font_size=40)
        by_e.next_to(axes.c2p(x0 + 1 + STEP_WIDTH / 2, math.exp(x0 + 0.5)), RIGHT)
        ratio = self.number(Ratio(f"{ROW}.exps[0]", top, second), 2, style.LABEL_SIZE)
        times = VGroup(MathTex(r"\times", font_size=36), ratio).arrange(RIGHT, buff=0.08)
        gap = curve.gap_marks(second, top, times)
        above = curve.axes.get_area(curve.curve, color=style.HIGHLIGHT, opacity=0.25)
        s_lo, s_hi = row.scores[0][second], row.scores[0][top]
        x_band = axes.get_area(
            curve.curve, x_range=(s_lo, s_hi), color=style.HIGHLIGHT, opacity=0.3
        )
        corner_lo, corner_hi = axes.c2p(0, math.exp(s_lo)), axes.c2p(s_hi, math.exp(s_hi))
        y_band = Rectangle(width=corner_hi[0] - corner_lo[0], height=corner_hi[1] - corner_lo[1])
        y_band.set_fill(style.HIGHLIGHT, opacity=0.3).set_stroke(width=0)
        y_band.move_to((corner_lo + corner_hi) / 2)
        self.bands = VGroup(x_band, y_band)
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
                # +1 along x: the column slides; ×e: it stretches up to the curve again
                "gap": [
                    FadeOut(above),
                    Succession(
                        GrowFromEdge(column, DOWN),
                        AnimationGroup(
                            column.animate.shift(one_on),
                            FadeIn(plus),
                        ),
                    ),
                ],
                "up": [Transform(column, stretched), FadeIn(by_e)],
                # the gap on x, then the ratio it becomes on y
                "ratio": [FadeOut(column, plus, by_e), FadeIn(x_band), Create(gap[0][0])],
                "fold": [
                    GrowFromEdge(y_band, LEFT),
                    Create(gap[0][1]),
                    GrowFromCenter(gap[1]),
                    FadeIn(gap[2]),
                ],
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
            FadeOut(self.bands),
            target.animate.shift(self.unit_place - unit.get_center()),
            then=[[FadeIn(total)]],
            total=exp_sum,
        )
        weights = ShareBar(row.weights[0], unit.width, unit.height)
        weights.move_to(self.unit_place)
        names, numbers = _labels(self, weights, self.apple_words()[: ex.short], f"{ROW}.weights[0]")
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
        """it's weights at the k-th temperature: one bar of length 1 split into the words'
        shares (cat's share framed, the total beside it), and a bar per word under it."""
        c = self.data.it_cat
        it, cat = c.query_index, c.referent
        temp = c.temperatures[k]
        source = f"{IT}.temperatures[{k}].weights[{it}]"
        labels = [style.text(t, style.BODY_SIZE, style.KEY) for t in c.tokens]
        bars = WeightBars(labels, temp.weights[it], source, length=SPLIT_BAR, bar_height=0.42)
        split, track, total = _unit_bar(self, temp.weights[it], source, SPLIT_BAR)
        frame = SurroundingRectangle(split[cat], color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        whole = VGroup(split, track, frame, total)
        whole.next_to(bars, UP, buff=style.GROUP_BUFF).align_to(bars.rows[0][1], LEFT)
        group = VGroup(whole, bars)
        group.split, group.track, group.frame, group.total, group.bars = (
            split,
            track,
            frame,
            total,
            bars,
        )
        return group

    def _columns(self, k: int, unit: float) -> VGroup:
        """it's scores divided by the k-th T, as columns on one baseline (at y = 0, the first
        at x = 0): a column ``unit`` high per unit of score."""
        c = self.data.it_cat
        scores = c.temperatures[k].scores[c.query_index]
        columns = VGroup(
            *(
                Rectangle(width=COLUMN, height=max(s * unit, 0.001))
                .set_fill(style.FOREGROUND, opacity=0.8)
                .set_stroke(width=0)
                .move_to([j * (COLUMN + COLUMN_GAP), s * unit / 2, 0])
                for j, s in enumerate(scores)
            )
        )
        return columns

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
        """The knob and its formula on the left, the looking word's bars on the right (and
        under them room for the even split's label)."""
        left = VGroup(knob, formula).arrange(DOWN, buff=style.GROUP_BUFF)
        room = style.text(self.words["even_line"], style.LABEL_SIZE)
        right = VGroup(looker, bars, room).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        style.place(VGroup(left, right).arrange(RIGHT, buff=style.WIDE_BUFF))

    def _temperature(self) -> None:
        c = self.data.it_cat
        it, cat = c.query_index, c.referent
        temps = [t.t for t in c.temperatures]
        usual_k = temps.index(1.0)
        words = {0: "t_low", usual_k: "t_mid", len(temps) - 1: "t_high"}
        knob = Knob(len(temps), "T", at=usual_k)
        formula = MathTex(r"\mathrm{softmax}(\mathrm{score} / T)", font_size=44)
        shown = self._bars(0)
        looker = style.text(f"{c.tokens[it]} →", style.BODY_SIZE, style.QUERY)
        self._layout(knob, formula, shown, looker)
        self.fit = shown.width / self._bars(0).width  # the layout's scale, for every stop

        # it's scores as columns over the right panel; ÷T shrinks them towards 0
        unit = COLUMN_HEIGHT / max(c.temperatures[usual_k].scores[it])
        right = VGroup(looker, shown)
        natural = self._columns(usual_k, unit)
        fit = min(1.0, right.width / natural.width)
        base_y = right.get_center()[1] - COLUMN_HEIGHT * fit / 2
        move = np.array([right.get_center()[0] - natural.get_center()[0] * fit, base_y, 0.0])

        def columns(k: int) -> VGroup:
            return self._columns(k, unit).scale(fit, about_point=ORIGIN).shift(move)

        cols = columns(usual_k)
        baseline = Line(cols.get_left(), cols.get_right()).set_stroke(style.MUTED, width=2)
        baseline.set_y(base_y).scale(1.1)
        score_name = style.text(self.words["scores_label"], style.LABEL_SIZE, style.MUTED)
        score_name.next_to(baseline, UP, buff=style.ITEM_BUFF).align_to(baseline, LEFT)
        sentence = VGroup(
            *(
                style.text(t, style.BODY_SIZE).next_to(
                    [col.get_x(), base_y, 0], DOWN, buff=style.ITEM_BUFF
                )
                for t, col in zip(c.tokens, cols, strict=True)
            )
        )
        it_frame = SurroundingRectangle(sentence[it], color=style.QUERY, buff=style.HUG_BUFF)
        cat_frame = SurroundingRectangle(sentence[cat], color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        pointing = CurvedArrow(
            it_frame.get_bottom(), cat_frame.get_bottom(), angle=-PI / 3, color=style.QUERY
        )
        halved, quarter = columns(usual_k + 1), columns(usual_k + 2)
        half_reading, usual_reading = self._reading(knob, usual_k + 1), self._reading(knob, usual_k)
        quarter_reading = self._reading(knob, usual_k + 2)
        back = columns(usual_k)
        self.say(
            "t_intro",
            FadeOut(self.map, shift=RIGHT * style.GROUP_BUFF),
            FadeIn(knob),
            then=[
                [
                    FadeIn(baseline, score_name),
                    LaggedStart(*(GrowFromEdge(col, DOWN) for col in cols), lag_ratio=0.1),
                ]
            ],
            beats={
                "divide": [
                    FadeIn(formula),
                    knob.turn(usual_k + 1),
                    ReplacementTransform(cols, halved),
                    ReplacementTransform(knob.name, half_reading),
                ],
                "one": [
                    knob.turn(usual_k + 2),
                    ReplacementTransform(halved, quarter),
                    ReplacementTransform(half_reading, quarter_reading),
                ],
                "usual": [
                    knob.turn(usual_k),
                    ReplacementTransform(quarter, back),
                    ReplacementTransform(quarter_reading, usual_reading),
                ],
                "sentence": [
                    LaggedStart(*(FadeIn(w, shift=UP * 0.2) for w in sentence), lag_ratio=0.15)
                ],
                "pronoun": [Create(it_frame), back[it].animate.set_fill(style.QUERY)],
                "plain": [Succession(Create(pointing), Create(cat_frame))],
            },
        )
        # The columns go; the sentence's words fall into place as the bars' labels.
        rows = shown.bars.rows
        cat_bar = rows[cat]
        outline = SurroundingRectangle(VGroup(cat_bar[1], cat_bar[3]), buff=style.HUG_BUFF)
        reading = self._reading(knob, 0)  # the knob's setting, under it, from here on
        self.say(
            words[0],
            FadeOut(formula, it_frame, cat_frame, pointing, back, baseline, score_name),
            knob.turn(0),
            ReplacementTransform(usual_reading, reading),
            then=[
                [
                    *(
                        ReplacementTransform(word, row[0])
                        for word, row in zip(sentence, rows, strict=True)
                    ),
                    FadeIn(VGroup(*(row[1:] for row in rows)), looker),
                    GrowFromEdge(VGroup(shown.split, shown.track), LEFT),
                    FadeIn(shown.total),
                ]
            ],
            beats={"top": [Create(outline), Create(shown.frame)]},
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
                then = []
                if k == usual_k:  # cat's share of the one bar is cat's own bar
                    then = [[TransformFromCopy(new.split[cat], new.bars.rows[cat][2])]]
                if k == len(temps) - 1:
                    then = [[Create(share[0])], [FadeIn(share[1:])]]
                w = self._it_cat(k) if k != len(temps) - 1 else None
                self.say(words[k], *step, then=then, **({"w": w} if w else {}))
            else:
                self.play(*step, run_time=1.2)
                self.wait(0.4)
            shown = new
        # "whatever T is": the knob swept back to T = 1, the bar re-split, its length unchanged
        leaving = [m for m in self.mobjects if m not in (self.title, shown, reading, looker)]
        back = []
        for k in range(len(temps) - 2, usual_k - 1, -1):
            new = self._bars(k).scale(self.fit).move_to(shown, aligned_edge=LEFT)
            reading, was = self._reading(knob, k), reading
            back.append(
                [ReplacementTransform(shown, new), knob.turn(k), ReplacementTransform(was, reading)]
            )
            shown = new
        # "every row": the knob, the word bars and the even split leave, it's bar of length 1
        # moves down a row, and 蘋果's (the row of the chapter's first half) comes back above
        # it, exactly as long; each total is framed. The picture weighted_sum opens on.
        apple, it_row, totals = every_row(self)
        parts = (looker, shown.split, shown.track, shown.total)
        kept = (it_row.looker, it_row.split, it_row.track, it_row.total)
        self.say(
            "t_sum",
            *back[0],
            then=back[1:],
            beats={
                "every": [
                    Succession(
                        AnimationGroup(
                            *(FadeOut(m) for m in (*leaving, reading, shown.bars, shown.frame)),
                            *(ReplacementTransform(a, b) for a, b in zip(parts, kept, strict=True)),
                        ),
                        FadeIn(apple, shift=DOWN * style.ITEM_BUFF, run_time=0.8),
                        Create(totals, run_time=0.6),
                    )
                ]
            },
            run_time=ROWS_TIME,
        )

    def _even_share(self, shown: VGroup) -> VGroup:
        """Ticks on the one bar at every 1/n, the even split; a dashed line through the
        words' bars at 1/n, every word's share when all are equal."""
        c = self.data.it_cat
        it, n = c.query_index, len(c.tokens)
        rows = shown.bars.rows
        last = len(c.temperatures) - 1
        source = Mean(f"{IT}.temperatures[{last}].weights[{it}]", tuple(range(n)))
        track = shown.track
        ticks = VGroup(
            *(
                Line(
                    track.get_corner(DOWN + LEFT)
                    + RIGHT * track.width * j / n
                    + DOWN * style.ITEM_BUFF,
                    track.get_corner(UP + LEFT)
                    + RIGHT * track.width * j / n
                    + UP * style.ITEM_BUFF,
                ).set_stroke(style.HIGHLIGHT, width=4)
                for j in range(1, n)
            )
        )
        row_track = rows[0][1]
        x = row_track.get_left()[0] + row_track.width / n
        line = DashedLine(
            [x, rows[0].get_top()[1] + style.ITEM_BUFF, 0],
            [x, rows[-1].get_bottom()[1], 0],
            color=style.HIGHLIGHT,
        )
        label = phrase(
            self.words["even_line"], style.LABEL_SIZE, style.HIGHLIGHT, share=self.number(source, 2)
        )
        label.next_to(line, DOWN, buff=style.HUG_BUFF)
        return VGroup(ticks, line, label)


def _weight_row(
    scene: LectureScene,
    weights: list[float],
    source: str,
    looker: str,
    names: list[str] | None = None,
) -> VGroup:
    """One row of weights as this chapter draws it: the looking word (Query colour), its bar of
    length 1 split into the weights (each part in the heat of its share) and the total beside
    it; with ``names``, each part's word over it and its weight under it."""
    split, track, total = _unit_bar(scene, weights, source, ROW_BAR)
    who = style.text(f"{looker} →", style.BODY_SIZE, style.QUERY)
    who.next_to(track, LEFT, buff=style.GROUP_BUFF)
    row = VGroup(who, split, track, total)
    row.looker, row.split, row.track, row.total = who, split, track, total
    if names:
        row.names, row.numbers = _labels(scene, split, names, source)
        row.add(row.names, row.numbers)
    return row


def _unit_bar(
    scene: LectureScene, weights: list[float], source: str, length: float
) -> tuple[ShareBar, Rectangle, VGroup]:
    """A row of weights as one bar of ``length`` split into them (each part in the heat of its
    share), its outline, and its total beside it (softmax's line, "=" or "≈")."""
    split = ShareBar(weights, length, BAR_HEIGHT)
    track = Rectangle(width=length, height=BAR_HEIGHT).set_stroke(style.FOREGROUND, width=2)
    track.move_to(split)
    weight_sum = scene.number(Sum(source), 2)
    line = scene.with_sign("total", weights, weight_sum.value, 2, table=Softmax.scene_key)
    total = phrase(line, total=weight_sum).next_to(track, RIGHT, buff=style.GROUP_BUFF)
    return split, track, total


def _labels(
    scene: LectureScene, split: ShareBar, names: list[str], source: str
) -> tuple[VGroup, VGroup]:
    """Each part's word over it and its weight (``source[k]``) under it, spread apart."""
    over = VGroup(
        *(
            style.text(t, style.LABEL_SIZE, style.KEY).next_to(p, UP, buff=style.ITEM_BUFF)
            for t, p in zip(names, split, strict=True)
        )
    )
    under = VGroup(
        *(
            scene.number(f"{source}[{k}]", 2).next_to(p, DOWN, buff=style.ITEM_BUFF)
            for k, p in enumerate(split)
        )
    )
    spread(over), spread(under)
    return over, under


@seam_builder
def every_row(scene: LectureScene) -> VGroup:
    """softmax's last picture, weighted_sum's first: the two sentences' rows of weights as bars
    of one length, each with its looking word before it and its total after it, each total
    framed (every row adds up to 1). Above, 蘋果's row of the short sentence
    (``last_row.weights[0]``: its words over the parts, the weights under them), the row
    weighted_sum uses; under it, it's row of The cat was scared so it hid at T = 1."""
    ex, c = scene.data.eat_apple, scene.data.it_cat
    words, i, it = scene.apple_words(), ex.query_index, c.query_index
    usual = [t.t for t in c.temperatures].index(1.0)
    apple = _weight_row(
        scene, ex.last_row.weights[0], f"{ROW}.weights[0]", words[i], words[: ex.short]
    )
    it_row = _weight_row(
        scene,
        c.temperatures[usual].weights[it],
        f"{IT}.temperatures[{usual}].weights[{it}]",
        c.tokens[it],
    )
    it_row.next_to(apple, DOWN, buff=style.SECTION_BUFF)
    it_row.shift(RIGHT * (apple.track.get_left()[0] - it_row.track.get_left()[0]))
    totals = VGroup(
        *(
            SurroundingRectangle(row.total, color=style.HIGHLIGHT, buff=style.HUG_BUFF)
            for row in (apple, it_row)
        )
    )
    picture = VGroup(apple, it_row, totals)
    style.place(picture, grow=ROWS_GROW)
    return picture
