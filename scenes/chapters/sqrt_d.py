"""Pitfall 2 (seeds 000, 002): why divide by sqrt(d)? Unscaled softmax saturates as d grows.

Render alone with ``manim -ql scenes/chapters/sqrt_d.py SqrtD``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    ApplyFunction,
    ApplyMethod,
    Arrow,
    Circumscribe,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    Line,
    MathTex,
    Mobject,
    MoveAlongPath,
    Rectangle,
    ReplacementTransform,
    Restore,
    ShowPassingFlash,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    UpdateFromAlphaFunc,
    VGroup,
    VMobject,
    Write,
    config,
    linear,
    smooth,
    squish_rate_func,
)

from scenes.chapters.projection import office_search
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import Knob, RandomWalks
from scenes.kit.diagrams import AttentionFormula
from scenes.kit.emphasis import outline
from scenes.kit.numbers import Spoken, phrase
from scenes.kit.plots import SlopePlot
from scenes.kit.seams import seam_builder
from scenes.kit.turns import InTurn
from scenes.kit.vectors import WeightBars

SRC = "pitfalls.sqrt_d"
GRAD_WIDTH = 50  # a gradient arrow's stroke per unit of slope (0.22: 11; 0.04: 2)
GRAD_OFFSET = 0.22  # the two gradients run either side of the forward arrow, clear of it
PASSES = 3  # training's passes back drawn
LEFT_GROW = 1.4  # the knob and it -> every word's row enlarged beside the right-hand column
LEFT_SHARE = 0.8  # up to this share of its height
IT_CAT_GROW = 2.0  # it -> every word's bars, enlarged to fill the frame while they are the subject
WHY_TIME = 1.8  # the harms' beats: the slope's height runs over the whole of its words
DIMMED = 0.3  # the single draw and its line, once the trend is read from the mean
CLIMB_TIME = 2.5  # the means line's beats: the draw sweeping again as the mean is climbed
BIN = 0.5  # the histogram's bins of the products q_i k_i
HIST_REACH = 4  # it runs from -4 to +4
SLOPE_GROW = 2.6  # the slope's plot at most this much larger while it is the subject
LENS = (0.85, 1.0, 0.06)  # the magnifier's region of w (1 − w): w from, w to, slope up to
LENS_ZOOM = 2.5  # how much it enlarges it
LENS_AT = (0.57, 0.1)  # where its centre sits on the plot, under the curve (w, slope)
TERMS = 32  # the products q_i k_i drawn one by one before the walks take over
FORWARD_DIMMED = 0.25  # the forward arrows, once the gradients run back along them
FORMULA_SIZE = 96  # softmax(QKᵀ/√d)V, large, while its √d is named
SEAM_TIME = 2.0  # the office becoming the formula, slow enough to be followed
ROOT_SHARE = 0.5  # its √d written as the office's search becomes the rest of it
ROOT_LAG = 0.7  # (starting when that has gone this far)
# at a seam, what leaves has gone by the time what comes in (not travelling) shows
GOING, COMING = squish_rate_func(smooth, 0, 0.6), squish_rate_func(smooth, 0.4, 1)


class SqrtD(LectureScene):
    """d from 4 to 512: one draw's weights without and with sqrt(d), and the mean curves."""

    scene_key = "sqrt_d"
    reads = ("pitfalls.sqrt_d", "tokens.it_cat", "office")  # the office: its first picture
    tables = ("projection", "office")  # projection's last picture, in its words
    opens_on = office_search.__name__
    ends_on = "scale_knob"  # its last picture, shuffle's first (built at the module's end)

    def construct(self) -> None:
        self.probe = self.data.sqrt_d
        title = self.make_title()
        self.title = title
        dot = MathTex(
            r"q \cdot k =", "q_1 k_1", "+", "q_2 k_2", r"+ \cdots +", "q_d k_d", font_size=56
        )
        formula = AttentionFormula(attention_size=FORMULA_SIZE).attention
        style.place(formula)
        style.place(dot, UP)
        walks, table = self._walks_and_table(dot)
        strip = self._terms(walks)
        products = VGroup(dot[1], dot[3], dot[5])
        # projection's last picture at once: the office, the engineer's Query matched against
        # the result cards' titles, the found body read. That search is the formula: on its
        # first words the Query becomes Q, the titles (every Key) Kᵀ, the bodies (every
        # Value) V, the rest leaves; then the one piece the office had no part for, √d.
        room, (query, key, matrix, angle), read, found = office_search(self)
        offer, cards, lines, lit, labels = found
        titles = VGroup(*(card[0] for card in cards))
        bodies = VGroup(*(card[1] for card in cards))

        def leaves(m: Mobject) -> FadeOut:
            return FadeOut(m, rate_func=GOING)

        # each part on its own, in projection's drawing order (the order an animation group
        # draws its parts in): the Query turns into Q, each column of cards shrinks into its
        # symbol, the lit title going with its column
        parts = [
            leaves(room),
            ReplacementTransform(query, formula[2]),
            *(leaves(m) for m in (key, matrix, angle, offer)),
            travel(titles, formula[3]),
            travel(bodies, formula[7]),
            *(leaves(m) for m in (lines, labels[0])),
            ride(lit, titles, formula[3]),
            *(leaves(m) for m in (labels[1], read)),
        ]
        self.add(title, room, query, key, matrix, angle, offer, titles, bodies, lines)
        self.add(labels[0], lit, labels[1], read)
        self.say(
            "intro",
            AnimationGroup(
                AnimationGroup(
                    *parts,
                    FadeIn(formula[:2], formula[4], formula[6], rate_func=COMING),  # softmax( — )
                ),
                Write(formula[5], run_time=ROOT_SHARE),  # √d: the office had no part for it
                lag_ratio=ROOT_LAG,
            ),
            beats={
                "rote": [Circumscribe(formula, color=style.HIGHLIGHT)],
                "reason": [ReplacementTransform(formula, dot)],
                # the d products come out of the sum as a row of signed bars
                "terms": [FadeIn(strip.frame), TransformFromCopy(products, strip.bars)],
            },
            run_time=SEAM_TIME,
        )
        spread = self._spread(dot, walks, table, strip)  # gives way as the sweep comes in
        self.axes = self._axes()
        shown = self._draw(0)
        style.place(VGroup(shown, self.axes).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        # the table's widths stay and travel to the d axis when the sweep is announced
        ticks = self.axes[1]
        kept = [table.cells[i][0] for i in range(len(table.rows_k))]
        table.remove(*kept)
        rest = VGroup(
            self.axes[0],
            *(t for j, t in enumerate(ticks) if j not in table.rows_k),
            *self.axes[2:],
        )
        self.say(
            "sweep_start",
            FadeOut(spread),
            FadeIn(shown),
            beats={
                "grow": [
                    FadeIn(rest),
                    *(
                        ReplacementTransform(cell, ticks[k])
                        for cell, k in zip(kept, table.rows_k, strict=True)
                    ),
                ],
                "left": [outline(shown[1][0], shown[1][1])],  # grey, then the other
            },
            d=self.probe.dims[0].d,
        )
        curves = VGroup()
        for k in range(1, len(self.probe.dims)):
            new = self._draw(k).move_to(shown, aligned_edge=LEFT + UP)
            self.play(ReplacementTransform(shown, new), *self._extend(curves, k), run_time=0.9)
            self.wait(0.4)
            shown = new
        names = self._curve_names()
        curves.add(names)
        ends = self._ends()
        self.say(
            "means",
            outline(self.axes[3]),  # the y axis's name: the mean of the draws
            beats={
                # each curve's name comes from its block of bars on the left
                "unscaled": [
                    TransformFromCopy(shown[1][0][0], names[0]),
                    FadeIn(ends["unscaled"][0]),
                ],
                # the draw's bars sweep again from the narrowest d as the dot climbs the mean
                "climb": [self._climb(shown, ends["unscaled"])],
                "scaled": [
                    Succession(
                        AnimationGroup(
                            TransformFromCopy(shown[1][1][0], names[1]),
                            FadeIn(ends["scaled"][0]),
                        ),
                        self._travel("scaled", ends["scaled"]),
                    )
                ],
            },
            draws=self.probe.draws,
            d0=self.probe.dims[0].d,
            d1=self.probe.dims[-1].d,
            u0=ends["unscaled"][0],
            u1=ends["unscaled"][1],
            s0=ends["scaled"][0],
            s1=ends["scaled"][1],
            run_time=CLIMB_TIME,
        )
        self._knob(self._noise(shown, VGroup(self.axes, curves, *ends.values())))

    def _ends(self) -> dict[str, VGroup]:
        """The mean largest weight at the narrowest and the widest d, beside each curve's
        first and last points (without √d: above its end; with it: below)."""
        last = len(self.probe.dims) - 1
        ends = {}
        for kind, colour in (("unscaled", style.WITHOUT), ("scaled", style.WITH)):
            pair = VGroup()
            for k, side in ((0, DOWN + RIGHT), (last, UP if kind == "unscaled" else DOWN)):
                number = self.number(f"{SRC}.dims[{k}].mean_max_{kind}", 2, color=colour)
                pair.add(number.next_to(self._point(k, kind), side, buff=style.ITEM_BUFF))
            ends[kind] = pair
        return ends

    def _point(self, k: int, kind: str) -> np.ndarray:
        row = self.probe.dims[k]
        return self.axes.axes.c2p(math.log2(row.d), getattr(row, f"mean_max_{kind}"))

    def _travel(self, kind: str, pair: VGroup) -> Succession:
        """A dot runs along a mean curve from the narrowest d to the widest and becomes the
        value at its end."""
        points = [self._point(k, kind) for k in range(len(self.probe.dims))]
        path = VMobject().set_points_as_corners(points)
        runner = Dot(points[0], radius=0.09, color=style.HIGHLIGHT)
        return Succession(MoveAlongPath(runner, path), ReplacementTransform(runner, pair[1]))

    def _climb(self, shown: VGroup, pair: VGroup) -> Succession:
        """The draw on the left swept again from the narrowest d to the widest, in step with
        a dot climbing the mean curve without √d, which becomes the value at its end."""
        last = len(self.probe.dims) - 1
        points = [self._point(k, "unscaled") for k in range(last + 1)]
        path = VMobject().set_points_as_corners(points)
        runner = Dot(points[0], radius=0.09, color=style.HIGHLIGHT)
        draws = [self._draw(k).move_to(shown, aligned_edge=LEFT + UP) for k in range(last + 1)]
        return Succession(
            Transform(shown, draws[0]),  # the dot comes with its walk (as in _travel)
            AnimationGroup(
                MoveAlongPath(runner, path, rate_func=linear, run_time=last),
                Succession(*(Transform(shown, draws[k]) for k in range(1, last + 1))),
            ),
            AnimationGroup(FadeOut(runner), FadeIn(pair[1], target_position=runner)),
        )

    def _noise(self, shown: VGroup, plot: VGroup) -> VGroup:
        """One draw's largest weight without √d at every d, jagged against the mean: the
        draw sweeps again from the narrowest d and its largest bar drops onto the plot at
        each d, a dashed line growing point by point; its drops are noise. Then the draw
        and its line dim and the mean (on ``plot``: the axes, the curves, their values)
        climbs. Returns what is on screen after it."""
        dims = self.probe.dims
        a = self.axes.axes
        tops = [max(r.example_unscaled) for r in dims]
        points = [a.c2p(math.log2(r.d), w) for r, w in zip(dims, tops, strict=True)]
        # grey as the unscaled draw's bars, dashed: one draw, not the mean
        dots = VGroup(*(Dot(p, radius=0.06, color=style.WITHOUT) for p in points))
        links = VGroup(
            *(
                DashedLine(p, q).set_stroke(style.WITHOUT, width=2)
                for p, q in itertools.pairwise(points)
            )
        )
        single = VGroup(dots, links)
        drop = max(range(1, len(dims)), key=lambda k: tops[k - 1] - tops[k])  # its largest fall
        draws = [self._draw(k).move_to(shown, aligned_edge=LEFT + UP) for k in range(len(dims))]

        def arrives(k: int) -> InTurn:
            """The k-th draw on the left; its largest grey bar drops onto the plot at its d."""
            rows = draws[k][1][0][1].rows
            top = max(range(len(rows)), key=lambda j: dims[k].example_unscaled[j])
            joins = [Create(links[k - 1])] if k else []
            return InTurn(
                Transform(shown, draws[k]),
                AnimationGroup(TransformFromCopy(rows[top][2], dots[k]), *joins),
            )

        means = [Dot(self._point(k, "unscaled")) for k in range(len(dims))]
        dip = max(  # the mean's own largest fall
            range(1, len(dims)),
            key=lambda k: dims[k - 1].mean_max_unscaled - dims[k].mean_max_unscaled,
        )
        mean = VGroup(*means)  # where the mean curve runs, to outline it
        ends = [m.get_center() for m in (means[0], means[-1])]
        climb = Arrow(*ends, buff=style.HUG_BUFF, color=style.HIGHLIGHT).set_stroke(width=4)
        self.say(
            "noise",
            InTurn(*(arrives(k) for k in range(len(dims)))),
            beats={
                "dip": [outline(VGroup(dots[drop - 1], dots[drop]))],
                "trend": [
                    # the single draw and its line dim: the mean is what to read
                    shown.animate.fade(1 - DIMMED),
                    dots.animate.set_opacity(DIMMED),
                    links.animate.set_stroke(opacity=DIMMED),
                    outline(mean),
                ],
                "wobble": [
                    Succession(
                        outline(VGroup(means[dip - 1].copy(), means[dip].copy())),
                        GrowArrow(climb),
                    )
                ],
            },
            run_time=CLIMB_TIME,
        )
        return VGroup(shown, *plot, single, climb)

    def _curve_names(self) -> VGroup:
        last = self.probe.dims[-1]
        names = VGroup()
        for attr, kind, colour, side, buff in (
            # between the two curves, clear of the trend's arrow that ends on the last point
            ("mean_max_unscaled", "unscaled", style.WITHOUT, DOWN, style.ROW_BUFF),
            ("mean_max_scaled", "scaled", style.WITH, UP, style.ITEM_BUFF),
        ):
            point = self.axes.axes.c2p(math.log2(last.d), getattr(last, attr))
            names.add(
                style.text(self.words[kind], style.SMALL_SIZE, colour)
                .next_to(point, side, buff=buff)
                .align_to(point, RIGHT)
            )
        return names

    def _walks_and_table(self, dot: MathTex) -> tuple[RandomWalks, VGroup]:
        """The walks' plot and the table of spreads under q.k's sum (nothing shown yet)."""
        last = len(self.probe.dims) - 1  # every other width, down from the widest
        rows = [k for k in range(len(self.probe.dims)) if k % 2 == last % 2]
        size = style.BODY_SIZE
        cells = [
            [
                self.number(f"{SRC}.dims[{k}].d", 0, size),
                self.number(f"{SRC}.dims[{k}].spread_unscaled", 1, size),
                self.number(f"{SRC}.dims[{k}].sqrt_d", 1, size),
                self.number(f"{SRC}.dims[{k}].spread_scaled", 2, size),
            ]
            for k in rows
        ]
        heads = [
            style.text(self.words[f"col_{c}"], style.LABEL_SIZE, style.MUTED) for c in range(4)
        ]
        table = VGroup(*heads, *(c for row in cells for c in row))
        table.arrange_in_grid(len(rows) + 1, 4, buff=(style.GROUP_BUFF, style.GROUP_BUFF))
        table.heads, table.cells, table.rows_k = heads, cells, rows
        walks = RandomWalks(self.probe.walks, f"{SRC}.dims[{last}].d")
        below = VGroup(walks, table).arrange(RIGHT, buff=style.WIDE_BUFF)
        below.next_to(dot, DOWN, buff=style.SECTION_BUFF)
        if below.width > config.frame_width - 2 * style.EDGE_BUFF:
            below.scale_to_fit_width(config.frame_width - 2 * style.EDGE_BUFF)
        below.next_to(dot, DOWN, buff=style.SECTION_BUFF)
        return walks, table

    def _histogram(self) -> VGroup:
        """Every product q_i k_i of the walks, counted by value (bins of :data:`BIN`):
        centred on 0 (the y axis), ±1 dashed (one standard deviation)."""
        walks = np.asarray(self.probe.walks)
        terms = np.diff(walks, axis=1, prepend=0.0).ravel()
        edges = np.arange(-HIST_REACH, HIST_REACH + BIN / 2, BIN)
        counts = np.histogram(terms, edges)[0]
        top = int(counts.max())
        axes = style.muted_axes([-HIST_REACH, HIST_REACH, 1], [0, top, top], 4.4, 2.6)
        bars = VGroup(
            *(
                Rectangle(
                    width=axes.x_length * BIN / (2 * HIST_REACH) * 0.85,
                    height=max(axes.y_length * n / top, 0.01),
                )
                .set_fill(style.FOREGROUND, 0.9)
                .set_stroke(width=0)
                .next_to(axes.c2p(x + BIN / 2, 0), UP, buff=0)
                for x, n in zip(edges[:-1], counts, strict=True)
            )
        )
        sd = VGroup(
            *(
                DashedLine(axes.c2p(s, 0), axes.c2p(s, top)).set_stroke(style.HIGHLIGHT, 3)
                for s in (-1, 1)
            )
        )
        marks = VGroup(
            *(
                style.tick_label(f"{s:+d}" if s else "0").next_to(axes.c2p(s, 0), DOWN)
                for s in (-1, 0, 1)
            )
        )
        frame = VGroup(axes, marks)
        hist = VGroup(frame, bars, sd)
        hist.frame, hist.bars, hist.sd = frame, bars, sd
        return hist

    def _terms(self, walks: RandomWalks) -> VGroup:
        """q.k's first :data:`TERMS` products q_i k_i of the first walk, as signed bars on
        the walks' place, with the lines 0 and ±1 (their mean and one standard deviation);
        ``stacked`` lays the same bars tip to tail (the running sum: the walk's start) and
        ``path`` runs through their tips."""
        sums = self.probe.walks[0][:TERMS]
        terms = [b - a for a, b in zip([0.0, *sums[:-1]], sums, strict=True)]
        reach = math.ceil(max(max(abs(v) for v in sums), max(abs(v) for v in terms)))
        box = walks.axes
        axes = style.muted_axes([0, TERMS, TERMS / 4], [-reach, reach, 1], box.width, box.height)
        axes.move_to(box)
        pitch = box.width / TERMS

        def bars(base: list[float]) -> VGroup:
            return VGroup(
                *(
                    Line(axes.c2p(t + 0.5, b), axes.c2p(t + 0.5, b + v)).set_stroke(
                        style.FOREGROUND, width=60 * pitch
                    )
                    for t, (b, v) in enumerate(zip(base, terms, strict=True))
                )
            )

        sd = VGroup(
            *(
                DashedLine(axes.c2p(0, s), axes.c2p(TERMS, s)).set_stroke(style.HIGHLIGHT, 3)
                for s in (1, -1)
            )
        )
        marks = VGroup(
            *(
                style.tick_label(f"{s:+d}" if s else "0").next_to(axes.c2p(0, s), LEFT)
                for s in (1, 0, -1)
            )
        )
        strip = VGroup(axes, sd, marks)
        strip.frame, strip.sd, strip.marks = axes, sd, marks
        strip.bars = bars([0.0] * TERMS)
        strip.stacked = bars([0.0, *sums[:-1]])
        strip.path = VMobject().set_points_as_corners(
            [axes.c2p(0, 0), *(axes.c2p(t + 1, v) for t, v in enumerate(sums))]
        )
        strip.path.set_stroke(style.HIGHLIGHT, width=3)
        return strip

    def _spread(self, dot: MathTex, walks: RandomWalks, table: VGroup, strip: VGroup) -> VGroup:
        """The terms added up into a walk, the walks' spread measured next to sqrt(d), and
        after the division."""
        heads, cells = table.heads, table.cells
        columns = [VGroup(heads[c], *(row[c] for row in cells)) for c in range(4)]
        band = walks.band()
        spread = walks.spread(1)  # the walks' spread, swept from the first term to the last

        def widen(bar: VMobject, alpha: float) -> None:
            bar.become(walks.spread(1 + alpha * (walks.terms - 1)))

        hist = self._histogram().move_to(table)
        self.say(
            "random_walk",
            # every term drawn at random: copies of the bars pile up by value
            FadeIn(hist.frame),
            TransformFromCopy(strip.bars, hist.bars),
            beats={
                # mean 0, variance 1: the terms lie about 0, most within ±1
                "mean": [Create(strip.sd), FadeIn(strip.marks), Create(hist.sd)],
                # added up: each bar stands on the last one's tip, the sum wanders
                "more": [
                    Succession(Transform(strip.bars, strip.stacked), Create(strip.path)),
                    FadeOut(hist),
                    FadeIn(columns[0]),
                ],
                # and on for every term: the first walk, then the others
                "walk": [
                    Succession(
                        AnimationGroup(
                            FadeTransform(VGroup(strip, strip.bars), walks.frame),
                            ReplacementTransform(strip.path, walks.walks[0]),
                        ),
                        Create(walks.walks[1:], lag_ratio=0.15),
                    )
                ],
                # the spread measured: swept from the first term to the last
                "column": [
                    Succession(
                        UpdateFromAlphaFunc(spread, widen),
                        FadeIn(columns[1], shift=RIGHT * style.GROUP_BUFF, lag_ratio=0.2),
                    )
                ],
            },
        )
        d_low = cells[0][0].value  # the narrowest width in the table

        def sweep(start: float, end: float) -> UpdateFromAlphaFunc:
            """The spread's bar moved from ``start`` terms to ``end``: it narrows or widens."""
            return UpdateFromAlphaFunc(
                spread, lambda bar, a: bar.become(walks.spread(start + a * (end - start)))
            )

        self.say(
            "spread_say",
            outline(cells[0][1]),
            sweep(walks.terms, d_low),  # back to a few terms: the walks have barely left 0
            beats={
                "wide": [outline(cells[-1][1]), sweep(d_low, walks.terms)],
                "root": [Create(band), FadeIn(columns[2], lag_ratio=0.2)],
            },
            d0=cells[0][0],
            s0=cells[0][1],
            d1=cells[-1][0],
            s1=cells[-1][1],
        )
        self.say(
            "divided",
            FadeIn(columns[3], lag_ratio=0.2),
            Transform(walks.walks, walks.divided()),
            Transform(band, walks.flat_band()),
            Transform(walks.ticks, walks.zoomed_ticks()),  # the axis zooms in: ±3
            FadeOut(spread),
        )
        return VGroup(dot, table, walks, band)

    def _knob(self, sweep: VGroup) -> None:
        """The office arrow's length, the temperature T and d without sqrt(d): one knob, the
        scores' scale, turned notch by notch while it -> cat's weights sharpen (the row at
        each temperature); then why saturation harms, and the knob back at sqrt(d)."""
        c = self.data.it_cat
        cat = c.referent
        flat_first, plain, bare = notches(self)
        sharpest = len(flat_first) - 1
        stage = knob_stage(self, bare)  # the knob where it_cat is now
        knob, first, slope, chain = stage.knob, stage.first, stage.slope, stage.chain
        # the three settings fill the right-hand column, a third of its height each
        _, bottom, right, top = style.content_area()
        names = [style.text(self.words[f"knob_{j}"], style.LABEL_SIZE) for j in range(3)]
        for name in names:
            name.scale(stage.scale)
        column = first.get_right()[0] + style.GROUP_BUFF * 1.5 * stage.scale
        size = (
            right - column,
            (top - bottom - 2 * style.ROW_BUFF) / 3 - names[0].height - style.ITEM_BUFF,
        )
        icons = [self._setting(j, 0, size) for j in range(3)]
        settings = VGroup(
            *(
                VGroup(name, icon).arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
                for icon, name in zip(icons, names, strict=True)
            )
        ).arrange(DOWN, buff=style.ROW_BUFF, aligned_edge=LEFT)
        settings.next_to([column, top, 0], DOWN + RIGHT, buff=0)
        divisor = [first[1]]  # the bars stay and change shape; the divisor is written anew
        shown: list[int] = []  # the settings on screen, which turn with the knob

        def step(notch: int) -> list:
            """The knob to ``notch``, the settings shown to it and the bars to that
            temperature's row (a new row is the target each time, so no target was itself
            transformed before)."""
            row = row_in_place(self, first, flat_first[notch])
            turned = [
                Transform(icons[j], self._setting(j, notch, size).move_to(icons[j])) for j in shown
            ]
            before = divisor[0]
            same = len(before.family_members_with_points()) == len(
                row[1].family_members_with_points()
            )
            moves = [knob.turn(notch), Transform(first[0], row[0]), *turned]
            if same:  # as many glyphs: the divisor on screen changes shape, as the bars do
                return [*moves, Transform(before, row[1])]
            divisor[0] = row[1]
            return [*moves, FadeTransform(before, row[1])]

        def setting(j: int, notch: int) -> list:
            """The j-th setting comes in at ``notch`` as the knob turns there; those shown
            before turn with it."""
            icons[j].become(self._setting(j, notch, size).move_to(icons[j]))
            moves = step(notch)
            shown.append(j)
            return [FadeIn(settings[j], shift=LEFT * style.ITEM_BUFF), *moves]

        # the saturated it -> cat bars become the knob's, at the undivided notch
        carried = self._it_cat(
            sweep,
            lambda bars, line: [
                FadeIn(knob),
                Transform(bars, first[0]),
                FadeTransform(line, first[1]),
            ],
        )
        first[0] = carried  # the bars on screen: every step changes their shape
        self.play(*step(0))  # to the flattest notch, before the three settings are named
        self.say(
            "knob",
            beats={
                "arrow": setting(0, 1),
                "temp": setting(1, 2),
                "root": setting(2, bare),
                "knob": [  # the three are one setting: a copy of each name sinks into the knob
                    AnimationGroup(
                        *(FadeOut(n.copy(), target_position=knob.name, scale=0.5) for n in names),
                        lag_ratio=0.2,
                    ),
                    outline(knob.name),
                ],
                "sharp": [
                    Succession(*(AnimationGroup(*step(n)) for n in range(bare + 1, sharpest + 1)))
                ],
            },
        )
        shown.clear()  # the settings give way to the slope's plot
        last = len(self.probe.dims) - 1
        widest = self.number(f"{SRC}.dims[{last}].d", 0)
        slopes = {
            kind: self.number(f"{SRC}.dims[{last}].mean_slope_{kind}", 2)
            for kind in ("unscaled", "scaled")
        }
        along = along_w(slope, 0)
        slope.add(along)  # it shrinks with the plot
        top = SurroundingRectangle(first[0].rows[cat], buff=style.TIGHT_BUFF)
        others = [row for j, row in enumerate(first[0].rows) if j != cat]
        for row in others:
            row.save_state()
        # cat's weight at the sharpest notch (near 1), laid along the w axis
        axes = slope.frame[1]
        near_one = c.temperatures[flat_first[sharpest]].weights[c.query_index][cat]
        cat_w = Line(axes.c2p(0, 0), axes.c2p(near_one, 0)).set_stroke(style.WITHOUT, width=8)
        lens = self._lens(slope)
        learn = self._pulses(chain)
        # the way back across the bottom third: the knob and the row move up above it
        settled = [knob, first[0], divisor[0]]
        back = row_in_place(self, first, flat_first[plain])
        stage.settle(back)
        turn = knob.turn(plain)
        turn.about_point = stage.settle(knob.dial.copy()).get_center()
        self.say(
            "why",
            outline(knob.pointer),
            beats={
                "one": [Create(top)],
                # nothing mixed in from the others: they dim
                "mix": [VGroup(*others).animate.fade(0.75)],
                "two": [
                    FadeOut(top),
                    *(Restore(row) for row in others),
                    FadeOut(settings),
                    FadeIn(slope.frame[1:]),
                    Create(slope.curve),
                ],
                "formula": [Write(slope.frame[0])],
                # its shape: a weight's height rises to w = 0.5 and falls back as w nears 1
                "curve": [self._trace(slope)],
                # a weight near 1: cat's bar flies onto the w axis
                "slopes": [TransformFromCopy(first[0].rows[cat][2], cat_w)],
                # the mean largest weight at the widest d takes its place; the point runs to it
                "top": [ReplacementTransform(cat_w, along), self._run_to(slope, 0)],
                # the slope as a height, read off its axis, and enlarged under the curve
                "low": [
                    InTurn(
                        AnimationGroup(Create(slope.heights[0]), self._read_off(slope, 0)),
                        AnimationGroup(
                            Create(lens.box),
                            TransformFromCopy(lens.region, lens.enlarged),
                            Create(lens.frame),
                            Create(lens.lines),
                            FadeIn(lens.label),
                        ),
                    )
                ],
                # with the division: its dot runs the curve to its own mean weight, and reads off
                "with": [
                    InTurn(
                        self._run_to(slope, 1),
                        AnimationGroup(Create(slope.heights[1]), self._read_off(slope, 1)),
                    )
                ],
                # near 1: cat's bar; near 0: every other bar; then the way back to W_Q, W_K
                "stuck": [
                    InTurn(
                        outline(first[0].rows[cat], VGroup(*others)),
                        AnimationGroup(
                            FadeOut(lens),
                            slope.animate.scale(1 / stage.grow).move_to(stage.small),
                            *(ApplyFunction(stage.settle, m) for m in settled),
                            FadeIn(chain.parts, lag_ratio=0.1),
                            Create(chain.forward),
                        ),
                    )
                ],
                # the gradient runs back as thick as the slope it passes: each height travels
                "grad": [
                    Succession(
                        AnimationGroup(
                            chain.forward.animate.set_opacity(FORWARD_DIMMED),
                            *(
                                TransformFromCopy(slope.heights[k], chain.grads[k][0])
                                for k in range(2)
                            ),
                        ),
                        AnimationGroup(*(GrowArrow(a) for g in chain.grads for a in g[1:])),
                    )
                ],
                # pass after pass back through softmax, the slope's signal weak or strong
                "learn": [learn],
                "back": [
                    turn,
                    Transform(first[0], back[0]),
                    FadeTransform(divisor[0], back[1]),
                ],
            },
            d1=widest,
            u1=self._mean_max(-1, "unscaled"),
            g1=slopes["unscaled"],
            g1s=slopes["scaled"],
            run_time=WHY_TIME,
        )

    def _lens(self, slope: SlopePlot) -> VGroup:
        """The corner of w (1 − w) near w = 1 (the grey point, its slope and the curve)
        enlarged under the curve: ``box`` its region, ``region`` what is in it, ``enlarged``
        that enlarged in its ``frame``, ``lines`` between them, ``label`` the slope's value."""
        axes = slope.frame[1]
        w0, w1, high = LENS
        enter = (1 + math.sqrt(1 - 4 * high)) / 2  # where the curve comes down into it
        region = VGroup(
            Line(axes.c2p(w0, 0), axes.c2p(w1, 0)).set_stroke(style.MUTED, 2),
            axes.plot(lambda w: w * (1 - w), x_range=[enter, w1], color=style.FOREGROUND),
            slope.heights[0].copy(),
            slope.dots[0][0].copy(),
        )
        corner, far = axes.c2p(w0, 0), axes.c2p(w1, high)
        box = Rectangle(width=far[0] - corner[0], height=far[1] - corner[1])
        box.move_to((corner + far) / 2).set_stroke(style.HIGHLIGHT, 2)
        at = axes.c2p(*LENS_AT)
        enlarged = region.copy().scale(LENS_ZOOM, about_point=box.get_center())
        enlarged.shift(at - box.get_center())
        frame = box.copy().scale(LENS_ZOOM).move_to(at)
        lines = VGroup(
            DashedLine(box.get_corner(UP + LEFT), frame.get_corner(UP + RIGHT)),
            DashedLine(box.get_corner(DOWN + LEFT), frame.get_corner(DOWN + RIGHT)),
        ).set_stroke(style.HIGHLIGHT, 2)
        label = slope.dots[0][1].copy().next_to(enlarged[2], LEFT, buff=style.HUG_BUFF)
        lens = VGroup(box, enlarged, frame, lines, label)
        lens.box, lens.region, lens.enlarged, lens.frame = box, region, enlarged, frame
        lens.lines, lens.label = lines, label
        return lens

    def _pulses(self, chain: VGroup) -> Succession:
        """Training's passes back through softmax: pulses along both gradient paths, w to s
        to W_Q and W_K. Only the slope from w to s is measured (its arrow is as thick as
        it); how far W_Q and W_K then move depends on k, √d and the optimiser too, so no
        step length is drawn."""

        def pulse(arrow: Arrow) -> ShowPassingFlash:
            flash = arrow.copy().set_color(style.HIGHLIGHT)
            return ShowPassingFlash(flash, time_width=0.6)

        arrows = [a for g in chain.grads for a in g]
        return Succession(*(AnimationGroup(*map(pulse, arrows)) for _ in range(PASSES)))

    def _setting(self, j: int, notch: int, size: tuple[float, float]) -> VGroup:
        """The j-th thing that sets the scores' scale, at the knob's ``notch``, in a box of
        ``size``, each to a measure: the office's Query arrow, as long as the scores' scale
        (1 ÷ the divisor: each notch doubles it, the sharpest fills the width); the
        temperature T on its axis (log scale, the knob's temperatures as ticks); the
        scores' spread without √d (√d: a larger d), as tall as the scores' scale."""
        c = self.data.it_cat
        flat_first, _, _ = notches(self)
        scales = [c.temperatures[k].scale for k in flat_first]
        share = min(scales) / scales[notch]  # the scores' scale, the sharpest notch's = 1
        width, height = size
        frame = Rectangle(width=width, height=height).set_stroke(opacity=0)
        left = frame.get_left()
        if j == 0:
            part = Arrow(left, left + RIGHT * width * share, buff=0, color=style.QUERY)
            part.set_stroke(width=8)
        elif j == 1:
            part = self._temperature_axis(flat_first, notch, width)
        else:
            zero = Line(left, frame.get_right()).set_stroke(style.MUTED, 2)
            bar = Line(DOWN * height * share / 2, UP * height * share / 2)
            part = VGroup(zero, bar.set_stroke(style.HIGHLIGHT, 10).move_to(zero))
        return VGroup(frame, part.move_to(frame).align_to(frame, LEFT))

    def _temperature_axis(self, flat_first: list[int], notch: int, width: float) -> VGroup:
        """T on a log axis across ``width``: a tick and its value at each of the knob's
        temperatures (the smallest at the left), and the T dot at the one of ``notch``."""
        temps = self.data.it_cat.temperatures
        logs = [math.log2(temps[k].t) for k in flat_first]
        low, high = min(logs), max(logs)
        track = Line(LEFT * width / 2, RIGHT * width / 2).set_stroke(style.MUTED, 3)
        inset = width * 0.06  # the end ticks' values stay inside the column

        def at(value: float) -> np.ndarray:
            span = width - 2 * inset
            return track.get_left() + RIGHT * (inset + span * (value - low) / (high - low))

        ticks = VGroup()
        for k, v in zip(flat_first, logs, strict=True):
            t = temps[k].t
            places = 0 if t >= 1 else (1 if math.isclose(t * 10, round(t * 10)) else 2)
            mark = Line(at(v) + DOWN * 0.1, at(v) + UP * 0.1).set_stroke(style.MUTED, 3)
            value = self.number(f"tokens.it_cat.temperatures[{k}].t", places, color=style.MUTED)
            ticks.add(VGroup(mark, value.next_to(mark, DOWN, buff=style.ITEM_BUFF)))
        dot = Dot(at(logs[notch]), radius=0.13, color=style.HIGHLIGHT)
        name = MathTex("T", font_size=40).next_to(dot, UP, buff=style.ITEM_BUFF)
        return VGroup(track, ticks, dot, name)

    def _trace(self, slope: SlopePlot) -> UpdateFromAlphaFunc:
        """A height runs under w (1 − w) from w = 0 to 1 and is gone: the slope rises, then
        falls."""
        axes = slope.frame[1]
        height = Line(axes.c2p(0, 0), axes.c2p(0, 0)).set_stroke(style.HIGHLIGHT, width=6)

        def at(line: Line, alpha: float) -> None:
            w = 0.001 + 0.998 * alpha
            line.put_start_and_end_on(axes.c2p(w, 0), axes.c2p(w, w * (1 - w) + 0.001))
            line.set_stroke(opacity=1 - max(0.0, alpha - 0.9) * 10)

        return UpdateFromAlphaFunc(height, at, remover=True)

    def _run_to(self, slope: SlopePlot, k: int) -> Succession:
        """The k-th dot of the slope plot arrives by running along w (1 − w) from w = 0 to
        the mean largest weight, then settles to the mean of the draws' slopes, below the
        curve there: the mean of w (1 − w) over the draws is not the slope at their mean w."""
        dot = slope.dots[k][0]
        home = dot.get_center()
        axes = slope.frame[1]
        w = axes.p2c(home)[0]
        path = axes.plot(lambda x: x * (1 - x), x_range=[0, w])
        return Succession(MoveAlongPath(dot, path), ApplyMethod(dot.move_to, home))

    def _read_off(self, slope: SlopePlot, k: int) -> FadeIn:
        """The k-th dot's slope comes in from the slope's axis, level with the dot."""
        label = slope.dots[k][1]
        axis = slope.frame[1].y_axis
        return FadeIn(label, shift=RIGHT * (label.get_left()[0] - axis.get_center()[0]))

    def _mean_max(self, k: int, kind: str) -> Spoken:
        """The mean largest weight at the k-th width, as the narration says it."""
        k %= len(self.probe.dims)
        return self.spoken(f"{SRC}.dims[{k}].mean_max_{kind}", 2)

    def _axes(self) -> VGroup:
        dims = [row.d for row in self.probe.dims]
        axes = style.muted_axes(
            [math.log2(dims[0]), math.log2(dims[-1]), 1], [0, 1, 0.25], 5.5, 3.8
        )
        ticks = VGroup(
            *(
                self.number(f"{SRC}.dims[{k}].d", 0, color=style.MUTED).next_to(
                    axes.c2p(math.log2(d), 0), DOWN
                )
                for k, d in enumerate(dims)
            ),
            *(
                style.tick_label(f"{w:g}").next_to(axes.c2p(math.log2(dims[0]), w), LEFT)
                for w in (0, 0.5, 1)
            ),
        )
        x_name = style.text(self.words["x_axis"], style.SMALL_SIZE, style.MUTED)
        x_name.next_to(ticks, DOWN, buff=style.ITEM_BUFF)
        draws = self.number(f"{SRC}.draws", 0)
        y_name = phrase(self.words["y_axis"], style.SMALL_SIZE, style.MUTED, draws=draws)
        y_name.next_to(axes, UP, buff=style.ITEM_BUFF).align_to(axes, LEFT)
        group = VGroup(axes, ticks, x_name, y_name)
        group.axes = axes
        return group

    def _extend(self, curves: VGroup, k: int) -> list:
        """Dots and segments of the two mean curves up to width index k."""
        a = self.axes.axes
        rows = self.probe.dims
        added = []
        for attr, colour in (("mean_max_unscaled", style.WITHOUT), ("mean_max_scaled", style.WITH)):
            points = [a.c2p(math.log2(r.d), getattr(r, attr)) for r in rows[k - 1 : k + 1]]
            segment = VGroup(
                Dot(points[0], color=colour, radius=0.05), Dot(points[1], color=colour, radius=0.05)
            )
            line = a.plot_line_graph(
                [math.log2(r.d) for r in rows[k - 1 : k + 1]],
                [getattr(r, attr) for r in rows[k - 1 : k + 1]],
                add_vertex_dots=False,
                line_color=colour,
            )
            curves.add(segment, line)
            added += [FadeIn(segment), Create(line)]
        return added

    def _draw(self, k: int) -> VGroup:
        row = self.probe.dims[k]
        n = self.probe.positions
        blocks = VGroup()
        for kind, colour in (("unscaled", style.WITHOUT), ("scaled", style.WITH)):
            labels = [style.text(str(j + 1), style.SMALL_SIZE, style.MUTED) for j in range(n)]
            bars = WeightBars(
                labels,
                getattr(row, f"example_{kind}"),
                f"{SRC}.dims[{k}].example_{kind}",
                length=1.8,
                color=colour,
            )
            name = style.text(self.words[kind], style.LABEL_SIZE, colour)
            blocks.add(VGroup(name.next_to(bars, UP, buff=style.ITEM_BUFF), bars))
        blocks.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)
        d = phrase(
            self.words["d_line"],
            style.BODY_SIZE,
            d=self.number(f"{SRC}.dims[{k}].d", 0),
        )
        return VGroup(d, blocks).arrange(DOWN, buff=style.ROW_BUFF, aligned_edge=LEFT)

    def _it_cat(self, sweep: VGroup, sat: Callable[[VGroup, VGroup], list]) -> VGroup:
        """it -> every word with sqrt(d), then without it: the bars saturate onto cat.
        The sweep on screen (``sweep``) fades out as the bars come in. Returns the bars and
        their caption, which the knob then carries on."""
        c = self.data.it_cat
        it, cat = c.query_index, c.referent
        weight = {
            kind: self.number(f"tokens.it_cat.{kind}.weights[{it}][{cat}]", 2)
            for kind in ("scaled", "unscaled")
        }
        bars = {
            kind: WeightBars(
                [style.text(t, style.LABEL_SIZE, style.KEY) for t in c.tokens],
                getattr(c, kind).weights[it],
                f"tokens.it_cat.{kind}.weights[{it}]",
                3.0,
                color=colour,
            )
            for kind, colour in (("scaled", style.WITH), ("unscaled", style.WITHOUT))
        }
        lines = {
            "scaled": phrase(
                self.template("with_line"), style.BODY_SIZE, style.WITH, w=weight["scaled"]
            ),
            "unscaled": phrase(
                self.template("without_line"), style.BODY_SIZE, style.WITHOUT, w=weight["unscaled"]
            ),
        }
        shown = VGroup(bars["scaled"], lines["scaled"]).arrange(DOWN, buff=style.GROUP_BUFF)
        natural = shown.width
        style.place(shown, grow=IT_CAT_GROW)  # the sentence's row fills the frame
        grown = shown.width / natural  # the row without √d: where the one with it is, as large
        bars["unscaled"].scale(grown).move_to(bars["scaled"])
        lines["unscaled"].scale(grown).move_to(lines["scaled"])
        top = SurroundingRectangle(bars["scaled"].rows[cat], buff=style.TIGHT_BUFF)
        self.say(
            "it_cat",
            FadeOut(sweep),  # the sweep gives way as the sentence's bars come in
            FadeIn(bars["scaled"]),
            FadeIn(lines["scaled"]),
            then=[[outline(bars["scaled"].rows[cat])]],
            beats={
                "without": [
                    Transform(bars["scaled"], bars["unscaled"]),
                    FadeTransform(lines["scaled"], lines["unscaled"]),
                ],
                "all": [Create(top)],  # the one cell that takes nearly all the weight
                # saturation is one setting of a knob: the bars move beside it
                "sat": [FadeOut(top), *sat(bars["scaled"], lines["unscaled"])],
            },
            w=weight["scaled"],
            u=weight["unscaled"],
        )
        return bars["scaled"]


def travel(source: Mobject, target: Mobject) -> AnimationGroup:
    """``source`` (a part of the picture before) travels into ``target`` (a symbol), shrunk
    to fit in its box as it fades, while the symbol comes in along the same way: the parts
    that become a formula's pieces at a seam."""
    return AnimationGroup(
        FadeOut(source, target_position=target, scale=_fit(source, target)),
        FadeIn(target, target_position=source),
    )


def ride(rider: Mobject, source: Mobject, target: Mobject) -> FadeOut:
    """``rider`` (drawn on ``source``, on screen on its own) going where :func:`travel`
    takes ``source``, staying where it is on it."""
    fit = _fit(source, target)
    end = target.get_center() + fit * (rider.get_center() - source.get_center())
    return FadeOut(rider, target_position=end, scale=fit)


def _fit(source: Mobject, target: Mobject) -> float:
    return min(target.width / source.width, target.height / source.height)


# --- the knob, and the picture the chapter ends on (shuffle opens on it) ------------------
def notches(scene: LectureScene) -> tuple[list[int], int, int]:
    """The knob's notches: it_cat's temperatures, flattest first (their indices), the notch
    of T = 1 (q·k ÷ √d) and the notch whose scores are not divided at all (cat near 1)."""
    c = scene.data.it_cat
    flat_first = sorted(range(len(c.temperatures)), key=lambda k: -c.temperatures[k].t)
    plain = next(n for n, k in enumerate(flat_first) if c.temperatures[k].t == 1)
    bare = next(
        n
        for n, k in enumerate(flat_first)
        if math.isclose(c.temperatures[k].scale, c.unscaled.scale)
    )
    return flat_first, plain, bare


@dataclass
class KnobStage:
    """The knob and what it turns, placed (:func:`knob_stage`)."""

    knob: Knob  # the scores' scale
    first: VGroup  # it → every word at the undivided notch, the divisor of q·k under it
    slope: SlopePlot  # w (1 − w) at the widest d, enlarged to fill the right half for a while
    chain: VGroup  # W_Q, W_K → s → w and the gradients back (:func:`backward`), at the bottom
    scale: float  # how much the layout enlarged the picture: the settings beside it follow
    whole: VGroup  # the knob, the row and the right-hand column
    natural: float  # the width of ``whole`` before the layout
    small: np.ndarray  # the slope's plot's centre at its own size, at the top right
    grow: float  # how much the slope's plot is enlarged while it is the subject
    settle: Callable[[Mobject], Mobject]  # the knob and the row moved above the way back


def knob_stage(scene: LectureScene, at: int) -> KnobStage:
    """The knob (its pointer at notch ``at``), it → every word at the undivided notch, and
    the right-hand column (the slope's plot, then the settings), filling the frame (in
    sqrt_d's words, whichever scene builds it). At the end the slope's plot is at its own
    size at the top right, the way back to W_Q and W_K across the bottom third at full
    width, and the knob and the row (``settle``) above it."""
    flat_first, _, bare = notches(scene)
    knob = Knob(len(flat_first), scene.shared(SqrtD.scene_key)["knob_name"], at=at)
    first = it_row(scene, flat_first[bare])
    slope = scene.widest_slopes()
    right = VGroup(slope, backward(scene)).arrange(DOWN, buff=style.SECTION_BUFF)
    # the knob and the row as tall as the column beside them allows (else the lower left idles)
    grow = min(LEFT_GROW, LEFT_SHARE * right.height / first.height)
    knob.scale(grow)
    first.scale(grow)
    whole = VGroup(knob, first, right).arrange(RIGHT, buff=style.GROUP_BUFF * 1.5)
    natural = whole.width
    style.place(whole, grow=1.4)  # the knob, the bars and the plots fill the frame
    scale = whole.width / natural
    left, bottom, right_edge, top = style.content_area()
    # at the end: the slope's plot at its own size in the top right corner
    small = np.array([right_edge - slope.width / 2, top - slope.height / 2 - style.ITEM_BUFF, 0.0])
    # while it is the subject it fills the right half's height, right of the row
    left_edge = first.get_right()[0] + style.GROUP_BUFF * 1.5 * scale
    grow = min(SLOPE_GROW, (right_edge - left_edge) / slope.width, (top - bottom) / slope.height)
    slope.scale(grow).move_to([(left_edge + right_edge) / 2, (top + bottom) / 2, 0])
    # the way back across the bottom third, room for the steps at its left
    chain = backward(scene, right_edge - left, (top - bottom) / 3)
    chain.align_to([right_edge, bottom, 0], DOWN + RIGHT)
    held = VGroup(knob, first)
    room = top - chain.get_top()[1] - style.GROUP_BUFF
    shrink = min(1.0, room / held.height)
    anchor = held.get_corner(UP + LEFT)
    to = np.array([anchor[0], top, 0.0])

    def settle(m: Mobject) -> Mobject:
        return m.scale(shrink, about_point=anchor).shift(to - anchor)

    return KnobStage(knob, first, slope, chain, scale, whole, natural, small, grow, settle)


def it_row(scene: LectureScene, k: int) -> VGroup:
    """it -> every word at the k-th temperature, as bars, with the divisor of q.k."""
    c = scene.data.it_cat
    it = c.query_index
    source = f"tokens.it_cat.temperatures[{k}]"
    labels = [style.text(t, style.LABEL_SIZE, style.KEY) for t in c.tokens]
    bars = WeightBars(labels, c.temperatures[k].weights[it], f"{source}.weights[{it}]", 3.0)
    divisor = phrase(
        scene.shared(SqrtD.scene_key)["divisor_line"],
        style.LABEL_SIZE,
        s=scene.number(f"{source}.scale", 2),
    )
    group = VGroup(bars, divisor.next_to(bars, DOWN, buff=style.GROUP_BUFF))
    group.rows = bars.rows
    return group


def row_in_place(scene: LectureScene, first: VGroup, k: int) -> VGroup:
    """:func:`it_row` at the k-th temperature, where the row ``first`` stands, at its size."""
    row = it_row(scene, k)
    return row.scale(first[0].height / row[0].height).move_to(first, aligned_edge=LEFT)


def backward(scene: LectureScene, span: float | None = None, tall: float | None = None) -> VGroup:
    """W_Q and W_K give the score s, s the weight w; ``grads`` runs back from w to s to
    W_Q and W_K twice, without and with √d: from w to s as thick as its slope w (1 − w) at
    the widest d (its mean), a hairline without √d, a thick stroke with it; on from s alike
    (not to a measure: there the gradient also carries k, and ÷ √d). ``span`` and
    ``tall``: laid out that wide (the arrows longer) and at most that tall."""
    last = scene.data.sqrt_d.dims[-1]
    boxes = VGroup()
    for r, c in (("Q", style.QUERY), ("K", style.KEY)):
        name = MathTex(f"W_{r}", color=c, font_size=40)
        frame = SurroundingRectangle(name, buff=style.ITEM_BUFF).set_stroke(c, 2)
        boxes.add(VGroup(frame, name))
    boxes.arrange(DOWN, buff=style.GROUP_BUFF)
    score = MathTex("s", font_size=48)
    weight = MathTex("w", font_size=48)
    parts = VGroup(boxes, score, weight)
    if tall is not None and parts.height > tall:
        parts.scale_to_fit_height(tall)
    gap = style.WIDE_BUFF * 1.4
    if span is not None:
        gap = max(gap, (span - sum(p.width for p in parts)) / 2)
    parts.arrange(RIGHT, buff=gap)
    ends = [(box, score) for box in boxes] + [(score, weight)]
    forward = VGroup(
        *(
            Arrow(a.get_right(), b.get_left(), buff=style.HUG_BUFF, color=style.MUTED)
            for a, b in ends
        )
    ).set_stroke(width=2)
    grads = VGroup()
    for kind, colour, side in (("unscaled", style.WITHOUT, UP), ("scaled", style.WITH, DOWN)):
        slope = GRAD_WIDTH * getattr(last, f"mean_slope_{kind}")
        # only w -> s is drawn to its measure; on to W_Q and W_K the gradient also carries k
        # (÷ √d with the division), so those arrows are drawn alike, at the thinner width
        thin = GRAD_WIDTH * min(getattr(last, f"mean_slope_{k}") for k in ("unscaled", "scaled"))
        grads.add(
            VGroup(
                *(
                    Arrow(
                        b.get_left(),
                        a.get_right(),
                        buff=style.HUG_BUFF,
                        color=colour,
                        stroke_width=width,
                        max_stroke_width_to_length_ratio=100,
                        tip_length=0.1 + width / 30,
                    ).shift(side * GRAD_OFFSET)
                    for (a, b), width in zip(reversed(ends), (slope, thin, thin), strict=True)
                )
            )
        )
    chain = VGroup(boxes, score, weight, forward, grads)
    chain.parts, chain.forward, chain.grads = VGroup(boxes, score, weight), forward, grads
    return chain


def along_w(slope: SlopePlot, k: int) -> Line:
    """The k-th point's weight as a length on the w axis, from 0 to it."""
    axes = slope.frame[1]
    w = axes.p2c(slope.dots[k][0].get_center())[0]
    colour = slope.heights[k].get_stroke_color()
    return Line(axes.c2p(0, 0), axes.c2p(w, 0)).set_stroke(colour, width=8)


@seam_builder
def scale_knob(scene: LectureScene) -> VGroup:
    """sqrt_d's last picture, shuffle's first: the knob back at T = 1 (q·k ÷ √d) and
    it → every word there (cat 0.83), the divisor under the bars; at the right w (1 − w)
    with its two points (the largest weight at the widest d, without and with √d) and their
    slopes, and across the bottom the way back W_Q, W_K ← s ← w with its two gradients (the
    forward arrows dimmed). The knob, the row, the slope's plot, the chain."""
    flat_first, plain, _ = notches(scene)
    stage = knob_stage(scene, plain)
    row = row_in_place(scene, stage.first, flat_first[plain])
    slope, chain = stage.slope, stage.chain
    slope.add(along_w(slope, 0))  # laid along w while the plot is large
    slope.scale(1 / stage.grow).move_to(stage.small)
    chain.forward.set_opacity(FORWARD_DIMMED)
    return VGroup(stage.settle(stage.knob), stage.settle(row), slope, chain)
