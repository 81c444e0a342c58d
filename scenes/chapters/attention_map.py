"""Open its head: the trained model's attention map for one example sentence.

Render alone with ``manim -ql scenes/chapters/attention_map.py AttentionMap``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from manim import (
    DL,
    DOWN,
    DR,
    LEFT,
    PI,
    RIGHT,
    TAU,
    UP,
    UR,
    AnimationGroup,
    ApplyMethod,
    Arc,
    Arrow,
    Brace,
    Create,
    CurvedArrow,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromCenter,
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
    Wait,
)

from scenes.chapters.training import trained_model
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import LossPlot
from scenes.kit.emphasis import outline
from scenes.kit.labels import ColourMarker, TokenStrip, vertical_label
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Count, Mean
from scenes.kit.seams import seam_builder
from scenes.kit.vectors import ExpBars, ShareBar

SHARE_BAR = 0.5  # height of the row's weights drawn as one split bar
EQUAL_BAR = 0.3  # the same bar made from the scores, under them
CELL = 0.62  # the map fills the frame's height
REPLAY_TIME = 4.0  # seconds the untrained map takes to settle into the learned one
EXP_LABEL_GROW = 1.5  # eˣ beside the towers: this many times the body text's size
STACK_SHARE = 0.7  # the towers end to end: this share of the side panel (the bar of 1 is all of it)
EXP_STEP_TIME = 1.4  # each step of scores → bars → towers → the row's bar (within its cue)
SETTLING_PLOT = 0.85  # the loss curve the map settles beside: this share of its room
SETTLED_DOT = 0.09  # the dot on the loss curve at the step the map is shown at
MIX_STEP_TIME = 1.5  # each step of weights times V (land, shrink, add up)
V_CELL_SHARE = 0.8  # a V's cell: this share of its strip column's width
V_ROOM = 2.6  # frame units: the most a V column may be tall (the panel under the strip)
GAZE_WIDTH = (2, 14)  # an arrow of where a position looks: this stroke plus this times its weight
GAZE_ARC = PI * 0.8  # how far such an arrow arches under the strip
GAZE_GAP = 0.5  # radians left open at the top of the loop to itself
GAZE_LOOP = 0.25  # radius of the loop a position looks at itself along
GAZE_TIP = 0.18
FLAT_BAR = 0.03  # a weight of almost nothing, drawn as a bar: this tall (a flat line)
HEADER_SHARE = 0.72  # a map's marker headers: this share of its cell
MIN_SHRINK = 0.02  # a V weighted by almost nothing shrinks to this (still a scale, not 0)


class Mix(NamedTuple):
    """One row's weights times V, drawn (:meth:`AttentionMap._mix`)."""

    columns: VGroup  # every position's V, under its place in the strip
    tags: VGroup  # the row's weights, each over its V
    v_label: MathTex
    names: VGroup  # v₁, v₄, v₇ under the V's the row keeps
    total: AttentionGrid  # the weighted sum: the head's output for the row
    total_frame: SurroundingRectangle  # round the sum and its name, until the readout
    total_label: MathTex
    readout: VGroup
    arrows: VGroup  # the sum into the readout, the readout out to ŷ
    predicted: VGroup  # ŷ = the prediction
    answer: VGroup  # y = the answer


class AttentionMap(LectureScene):
    """The attention map of the trained model, read row by row.

    Variants override :attr:`example_name` (a pattern of the data file) and
    :attr:`focus_row` (the row read aloud, counted from 0).
    """

    scene_key = "attention_map"
    reads = ("examples.{example_name}", "training")
    tables = ("training",)  # the model box's two parts, named as training names them
    opens_on = trained_model.__name__
    ends_on = "learned_map"
    example_name = "mixed"
    focus_row = 0

    def construct(self) -> None:
        self.example = self.data.example(self.example_name)
        self.source = f"examples.{self.example_name}"
        title = self.make_title()
        # Training's last picture, at once: the model with the sequence over it, its answers,
        # the loss, and the map grown out of its head. On "open its brain" the map comes out
        # to fill the left of the frame and the sequence goes to the side panel.
        picture = trained_model(self)
        fed, box, rows, formula, grown = picture
        board, strip = self._layout()
        self.add(title, *picture)
        self.say(
            "intro",
            FadeOut(rows, formula),
            outline(fed),  # "a sequence it has not seen"
            beats={
                "open": [
                    FadeOut(box, shift=DOWN * 0.3),
                    ReplacementTransform(grown, self.grid),
                    FadeIn(board[1:]),  # the map's axes
                    ReplacementTransform(fed, strip),
                ]
            },
        )
        self.say(
            "strip",
            outline(*(strip.get_column(j) for j in range(self.example.n))),
            n=self.example.n,
        )
        grid, i = self.grid, self.focus_row
        bright = next(
            j
            for j, w in enumerate(self.example.attention[i])
            if w == max(self.example.attention[i])
        )
        dark = next(
            j
            for j, w in enumerate(self.example.attention[i])
            if w == min(self.example.attention[i])
        )
        column = VGroup(
            grid.col_headers[bright], *(grid.get_cell(r, bright) for r in range(self.example.n))
        )
        # one frame the eye follows: round the row, then it turns into the column, then it
        # splits onto the row's brightest and darkest cells and stays while they are read
        row_frame = self._frame(VGroup(grid.row_headers[i], grid.get_row(i)))
        column_frame = self._frame(column, buff=0)  # the map reaches down to the subtitles
        cell_frames = VGroup(
            self._frame(grid.get_cell(i, bright)), self._frame(grid.get_cell(i, dark))
        )
        # the row read as where position i looks: an arrow from it in the strip to each
        # position, as thick as the row's weight there
        gaze = self._gaze(strip, i)
        self.say(
            "grid",
            Create(row_frame),
            LaggedStart(*(Create(arrow) for arrow in gaze), lag_ratio=0.1),
            beats={
                "cols": [
                    ReplacementTransform(row_frame, column_frame),
                    outline(strip.get_column(bright)),
                ],
                "cells": [
                    ReplacementTransform(column_frame, cell_frames),
                    outline(gaze[bright], gaze[dark]),
                ],
            },
        )
        blocks = self._coloured_blocks()
        self.dark, self.dark_frame = dark, self._frame(grid.get_cell(i, dark))
        same = [j for j, c in enumerate(self.example.colours) if c == self.example.colours[i]]
        self.say(
            "blocks",
            FadeOut(cell_frames),
            FadeOut(gaze),
            LaggedStart(*(FadeIn(group) for group in blocks), lag_ratio=1.0),  # a colour at a time
            beats={
                "bright": [outline(*(grid.get_cell(j, k) for j in same[:2] for k in same[:2]))],
                # one off-colour 0.00 cell framed, kept until the row is read
                "faint": [Create(self.dark_frame)],
            },
        )
        self._read_focus_row(strip)
        self._why_equal()
        rewind, replay = self._settling(self._panel_room(), self.scores, restore=False)
        cleared = AnimationGroup(
            FadeOut(self.equal_bar),
            FadeOut(self.row_marks),
        )
        self.say(
            "outro",
            # "we never told it": the side panel cleared first, then the map as training
            # found it, beside the loss curve
            Succession(cleared, rewind),
            beats={"itself": [replay]},  # and as it learned: the learned map, the curve's end
            run_time=REPLAY_TIME,  # each watched step long enough to be seen
        )

    @staticmethod
    def _frame(part: VGroup, buff: float = style.HUG_BUFF) -> SurroundingRectangle:
        """A frame round what is being read, in the highlight."""
        return SurroundingRectangle(part, color=style.HIGHLIGHT, buff=buff)

    def _settling(
        self, room: VGroup, leaving: VGroup | None = None, restore: bool = True
    ) -> tuple[Succession, Succession]:
        """The map rewound to what training found, then replayed in place at each step it
        was watched into the learned one, beside the loss curve with a dot at each of those
        steps: the looking was learned (``examples.<name>.settling``,
        ``training.settling_steps``). What is in ``room`` makes way for the curve (of it,
        ``leaving`` if only that is on screen still) and, with ``restore``, returns;
        without, the replay ends on the curve with its dot at the last step."""
        ex, tr = self.example, self.data.training
        shown = VGroup(self.grid.cells, self.grid.numbers)
        maps = [
            self.colour_map(
                ex.colours, m, f"{self.source}.settling[{k}]", CELL, header=CELL * HEADER_SHARE
            ).replace(self.grid)
            for k, m in enumerate(ex.settling)
        ]
        learned = self._build_grid().replace(self.grid)
        plot = self._settling_plot(room)
        points = [
            plot.axes.c2p(k, math.log10(tr.loss_curve[k]) - plot.low) for k in tr.settling_steps
        ]
        dot = Dot(points[0], radius=SETTLED_DOT, color=style.HIGHLIGHT)
        labels = [
            self.number(f"training.settling_steps[{k}]", 0, style.SMALL_SIZE).next_to(
                point, UR, buff=style.HUG_BUFF
            )
            for k, point in enumerate(points)
        ]
        label = labels[0].copy()
        # the map goes back to the untrained grey as the curve and its dot at step 0 come in
        rewind = Succession(
            AnimationGroup(
                *self.grid.undim_rows(),
                FadeOut(room if leaving is None else leaving),
                FadeIn(plot),
                FadeIn(dot),
                FadeIn(label),
                Transform(shown, VGroup(maps[0].cells, maps[0].numbers)),
            )
        )
        steps = [
            AnimationGroup(
                Transform(shown, VGroup(target.cells, target.numbers)),
                dot.animate.move_to(point),
                Transform(label, step_label),
            )
            for target, point, step_label in zip(maps[1:], points[1:], labels[1:], strict=True)
        ]
        ends = [
            AnimationGroup(
                Transform(shown, VGroup(learned.cells, learned.numbers)),
                dot.animate.move_to(plot.get_end()),
                FadeOut(label),
            )
        ]
        if restore:  # what made way comes back
            back = room if leaving is None else leaving
            ends.append(AnimationGroup(FadeOut(plot), FadeOut(dot), FadeIn(back)))
        return rewind, Succession(*steps, *ends)

    def _settling_plot(self, room: VGroup) -> LossPlot:
        """The loss curve the map settles beside, in ``room``'s place."""
        tr = self.data.training
        plot = LossPlot(
            tr.loss_curve,
            "training.steps",
            self.shared("training")["x_axis"],
            width=room.width * 0.8,
            height=room.height * SETTLING_PLOT,
        )
        return plot.scale(min(1.0, room.height / plot.height)).move_to(room).align_to(room, LEFT)

    # --- building ----------------------------------------------------------------------
    def _layout(self) -> tuple[VGroup, TokenStrip]:
        """The map and its axes, and the side panel (the strip, the focus row's scores, the
        row's reading), placed: the chapter's last picture, which patterns opens on."""
        self.grid = self._build_grid()
        board = self._build_axes(self.grid)
        crowded = self.example.n > style.REFERENCE_POSITIONS  # the side panel packs tighter
        strip = self._strip()
        self.scores = self._build_scores()
        self.side = VGroup(strip, self.scores).arrange(
            DOWN, buff=style.GROUP_BUFF if crowded else style.SECTION_BUFF, aligned_edge=LEFT
        )
        gap = style.GROUP_BUFF if crowded else style.WIDE_BUFF
        # the side panel from the map's top down: under it, room for what the row shows
        style.place(VGroup(board, self.side).arrange(RIGHT, buff=gap, aligned_edge=UP))
        return board, strip

    def _strip(self) -> TokenStrip:
        """The example's sequence for the side panel (a long one wraps onto two rows)."""
        n = self.example.n
        crowded = n > style.REFERENCE_POSITIONS
        return TokenStrip(
            self._markers(style.HEADER_MARKER if crowded else style.MARKER_SIZE),
            self.example.values,
            f"{self.source}.values",
            per_row=math.ceil(n / 2) if crowded else n,  # a long sequence in two rows
        )

    def _panel_room(self) -> Rectangle:
        """The side panel from the scores' top down to the content area's bottom: where
        the loss curve stands while the map settles."""
        bottom = style.content_area()[1]
        room = Rectangle(width=self.side.width, height=self.scores.get_top()[1] - bottom)
        return room.align_to(self.scores, UP).align_to(self.side, LEFT)

    def _markers(self, size: float = style.MARKER_SIZE) -> list[ColourMarker]:
        return [self.colour_marker(c, size) for c in self.example.colours]

    def _build_grid(self) -> AttentionGrid:
        """The map; with more than 8 positions its cells shrink, read by brightness."""
        ex = self.example
        return self.colour_map(
            ex.colours, ex.attention, f"{self.source}.attention", CELL, header=CELL * HEADER_SHARE
        )

    def _build_axes(self, grid: AttentionGrid) -> VGroup:
        key_axis = style.text(self.words["key_axis"], style.LABEL_SIZE, style.KEY)
        key_axis.next_to(grid.col_headers, UP, buff=style.ITEM_BUFF)
        query_axis = vertical_label(self.words["query_axis"], color=style.QUERY)
        query_axis.next_to(grid.row_headers, LEFT, buff=style.ITEM_BUFF)
        return VGroup(grid, key_axis, query_axis)

    def _build_scores(self) -> VGroup:
        """The focus row's scores before the softmax, under their colour markers."""
        i = self.focus_row
        row = AttentionGrid(
            [self.example.scores[i]],
            f"{self.source}.scores",
            col_headers=self._markers(style.CELL_SIZE * HEADER_SHARE),
            decimals=1,
            heat=False,
            first_row=i,  # each number's source names its cell of the whole map
        )
        label = style.text(self.words["scores_label"], style.LABEL_SIZE)
        return VGroup(label, row).arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)

    def _gaze(self, strip: TokenStrip, i: int) -> VGroup:
        """Row ``i`` as where position ``i`` looks: an arrow arching under the strip from it
        to each position (a loop to itself), as thick as the row's weight there."""
        weights = self.example.attention[i]
        start = strip.get_column(i).get_bottom() + DOWN * style.ITEM_BUFF
        arrows = VGroup()
        for j, w in enumerate(weights):
            width = GAZE_WIDTH[0] + GAZE_WIDTH[1] * w
            if j == i:
                # a loop hanging under the position, from its top round back to it
                arrow = Arc(
                    radius=GAZE_LOOP, start_angle=PI / 2 + GAZE_GAP, angle=TAU - 2 * GAZE_GAP
                )
                arrow.shift(start + DOWN * GAZE_LOOP - arrow.arc_center).add_tip(
                    tip_length=GAZE_TIP
                )
            else:
                end = strip.get_column(j).get_bottom() + DOWN * style.ITEM_BUFF
                # clockwise going right, counter-clockwise going left: every arrow arches down
                arrow = CurvedArrow(start, end, angle=GAZE_ARC if end[0] > start[0] else -GAZE_ARC)
            arrows.add(arrow.set_stroke(style.WEIGHT, width=width).set_fill(style.WEIGHT))
        return arrows

    def _weight_bars(self, strip: TokenStrip, i: int) -> tuple[Line, VGroup]:
        """Row ``i``'s weights as bars standing on a base line under the strip, each under
        its position's column and as tall as its weight (the row's largest fills the room
        down to the subtitles, a weight of almost nothing is a flat line)."""
        ex = self.example
        weights = ex.attention[i]
        bottom = style.content_area()[1] + style.ITEM_BUFF
        room = strip.get_bottom()[1] - style.SECTION_BUFF - bottom
        width = strip.get_column(0).width * V_CELL_SHARE
        bars = VGroup()
        for j, (w, fill) in enumerate(zip(weights, self._fills(), strict=True)):
            bar = Rectangle(width=width, height=max(room * w / max(weights), FLAT_BAR))
            bar.set_fill(fill, opacity=1).set_stroke(width=0)
            bars.add(bar.match_x(strip.get_column(j)).set_y(bottom, DOWN))
        first, last = strip.get_column(0), strip.get_column(ex.n - 1)
        base = Line(first.get_left(), last.get_right()).set_stroke(style.MUTED, 2)
        return base.set_y(bottom), bars

    def _coloured_blocks(self) -> VGroup:
        """The same-colour blocks' frames, one group per colour (in order of first
        appearance), each drawn in its own task colour."""
        groups = self.grid.block_groups(self.example.colours)
        fills = dict(zip(self.example.colours, self._fills(), strict=True))
        for group, fill in zip(groups, fills.values(), strict=True):
            group.set_color(fill)
        self.block_frames = groups
        return groups

    def _blocks(self) -> VGroup:
        """A frame on every cell where a position looks at its own colour."""
        self.block_frames = self.grid.block_frames(self.example.colours)
        return self.block_frames

    # --- reading one row ---------------------------------------------------------------
    def _read_focus_row(self, strip: TokenStrip) -> None:
        i, ex = self.focus_row, self.example
        same = [j for j, c in enumerate(ex.colours) if c == ex.colours[i]]
        frame = SurroundingRectangle(
            self.grid.get_row(i), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF
        )
        # the row's cells drop out of the map as bars under the strip, each under its column
        base, stands = self._weight_bars(strip, i)
        tall = VGroup(  # a position of the row's colour: its column and its bar, one frame
            *(self._frame(VGroup(strip.get_column(j), stands[j])) for j in same)
        )
        picked = VGroup(*(self._frame(strip.get_column(j)) for j in same))
        self.row_marks = VGroup(frame, picked)  # they stay while the row is read, to the end
        weights = VGroup(
            *(
                self.number(f"{self.source}.attention[{i}][{j}]", 2, style.SMALL_SIZE).next_to(
                    stands[j], UP, buff=style.HUG_BUFF
                )
                for j in same
            )
        )
        share = self.spoken(Mean(f"{self.source}.attention[{i}]", tuple(same)), 2)
        self.say(
            "row",
            *self.grid.dim_rows(i),
            *(
                FadeOut(g) for g in self.block_frames
            ),  # one focal point: row 1's frame, not every block's
            FadeIn(frame),
            Create(base),
            *(
                TransformFromCopy(self.grid.get_cell(i, j), stands[j], path_arc=-0.5)
                for j in range(ex.n)
            ),
            # the 0.00 cell's frame goes with it onto its flat bar
            Transform(self.dark_frame, self._frame(stands[self.dark])),
            beats={
                "share": [
                    FadeOut(self.dark_frame),
                    LaggedStart(*(Create(f) for f in tall), lag_ratio=1.0),  # one, two, three
                ],
                "weight": [
                    LaggedStart(
                        *(
                            AnimationGroup(
                                TransformFromCopy(self.grid.get_number(i, j), w),
                                outline(self.grid.get_cell(i, j)),
                            )
                            for j, w in zip(same, weights, strict=True)
                        ),
                        lag_ratio=0.5,
                    )
                ],
            },
            row=i + 1,
            k=self.spoken(Count(f"{self.source}.colours", ex.colours[i]), 0),
            weight=share,
        )
        # the bars end to end: the row's weights as one bar split by colour, its length the
        # row's total (1); each weight rides in its part
        bar = self._share_bar(i)
        other = self._other_split(i)
        ruler = self._ruler(bar)
        inside = VGroup(
            *(
                w.copy().set_color(style.ink_on(self._fills()[j])).move_to(bar[j])
                for j, w in zip(same, weights, strict=True)
            )
        )
        self.say(
            "sum",
            *(ReplacementTransform(stands[j], bar[j]) for j in range(ex.n)),
            FadeOut(base),
            ReplacementTransform(weights, inside),
            ReplacementTransform(tall, picked),
            then=[[Create(ruler[0]), FadeIn(ruler[1:])]],  # the whole bar: 0 to 1
            beats={
                "softmax": [outline(bar, ruler)],
                # another row splits the same length otherwise: only the split points move
                "kept": [
                    *self.grid.undim_rows(),
                    FadeOut(inside),
                    Succession(
                        Transform(bar, self._share_bar(other)),
                        Wait(0.3),
                        Transform(bar, self._share_bar(i)),
                    ),
                ],
            },
        )
        # The row's weights times V, drawn: each position's V (a column of d cells under its
        # place in the strip, examples.<name>.v) takes the weight that lands on it and
        # shrinks by it; what is left adds up into the head's output (head_out), which the
        # readout turns into the prediction. The answer: the same-coloured numbers' mean.
        mix = self._mix(i, strip)
        values = [strip.get_column(j)[2] for j in same]
        self.say(
            "prediction_say",
            FadeOut(bar, ruler),
            *self.grid.dim_rows(i),
            # the V's come in and each weight lands on its position's V, as ×its number
            LaggedStart(
                AnimationGroup(FadeIn(mix.columns, lag_ratio=0.05), FadeIn(mix.v_label)),
                LaggedStart(
                    *(
                        AnimationGroup(
                            TransformFromCopy(self.grid.get_number(i, j), tag[1], path_arc=-0.6),
                            FadeIn(tag[0]),
                        )
                        for j, tag in enumerate(mix.tags)
                    ),
                    lag_ratio=0.1,
                ),
                lag_ratio=0.5,
            ),
            then=[
                [  # and the V shrinks by it: only its colour's are left, a third each, named
                    *(
                        ApplyMethod(c.scale, max(w, MIN_SHRINK), {"about_edge": UP})
                        for c, w in zip(mix.columns, ex.attention[i], strict=True)
                    ),
                    *(FadeOut(mix.tags[j]) for j in range(ex.n) if j not in same),
                    FadeIn(mix.names),
                ],
                [  # what is left adds up: the head's output for this row, framed
                    *(FadeOut(mix.columns[j]) for j in range(ex.n) if j not in same),
                    ReplacementTransform(
                        VGroup(*(VGroup(mix.columns[j], mix.tags[j]) for j in same)), mix.total
                    ),
                    FadeOut(mix.v_label, mix.names),
                    FadeIn(mix.total_label),
                    Create(mix.total_frame),
                ],
            ],
            run_time=MIX_STEP_TIME,  # each step of the mix long enough to follow
            beats={
                "readout": [
                    Succession(
                        AnimationGroup(
                            FadeOut(mix.total_frame),
                            GrowArrow(mix.arrows[0]),
                            FadeIn(mix.readout),
                            FadeOut(mix.total.copy(), target_position=mix.readout, scale=0.3),
                        ),
                        AnimationGroup(GrowArrow(mix.arrows[1]), FadeIn(mix.predicted)),
                    )
                ],
                "answer": [
                    LaggedStart(
                        *(
                            FadeOut(v.copy(), target_position=mix.answer[1], path_arc=0.6)
                            for v in values
                        ),
                        lag_ratio=0.3,
                    ),
                    FadeIn(mix.answer),
                    outline(mix.predicted[1], mix.answer[1]),
                ],
            },
            prediction=mix.predicted[1],
            target=mix.answer[1],
        )
        self.mixed = VGroup(mix.total, mix.total_label, mix.readout, mix.predicted)
        self.mixed.add(mix.answer, mix.arrows)

    @staticmethod
    def _ruler(bar: VGroup) -> VGroup:
        """A ruler under ``bar``: its left end 0, its right end 1 (a row's weights add up to
        the whole bar)."""
        left, right = bar.get_corner(DL), bar.get_corner(DR)
        line = Line(left, right).shift(DOWN * style.ITEM_BUFF).set_stroke(style.MUTED, 3)
        ticks = VGroup(
            *(
                Line(UP, DOWN).set_stroke(style.MUTED, 3).scale(0.08).move_to(end)
                for end in line.get_start_and_end()
            )
        )
        names = VGroup(
            style.tick_label("0").next_to(ticks[0], DOWN, buff=style.HUG_BUFF),
            style.tick_label("1").next_to(ticks[1], DOWN, buff=style.HUG_BUFF),
        )
        return VGroup(line, ticks, names)

    def _mix(self, i: int, strip: TokenStrip) -> Mix:
        """Row ``i``'s mix of the V's, laid out under the strip: every position's V as a
        column under its place, the sum's column, the readout and the prediction beside its
        answer (all from the data file)."""
        ex, src = self.example, self.source
        span = max(abs(x) for row in ex.v for x in row)  # one shade scale for every V
        column_width = strip.get_column(0).width
        cell = min(column_width * V_CELL_SHARE, V_ROOM / len(ex.v[0]))

        def column(values: list[float], path: str) -> AttentionGrid:
            return AttentionGrid(
                [[x] for x in values],
                path,
                cell_size=cell,
                show_numbers=False,
                value_range=(-span, span),
            )

        columns = VGroup(*(column(ex.v[j], f"{src}.v[{j}]") for j in range(ex.n)))
        for j, c in enumerate(columns):
            c.match_x(strip.get_column(j)).next_to(strip, DOWN, buff=style.SECTION_BUFF)
            c.match_x(strip.get_column(j))
        tags = VGroup()  # the row's weights, each over the V it weighs: ×w
        for j, c in enumerate(columns):
            weight = self.grid.get_number(i, j).copy()
            times = MathTex(r"\times", font_size=style.SMALL_SIZE).match_height(weight)
            tag = VGroup(times, weight).arrange(RIGHT, buff=style.TIGHT_BUFF)
            tag.next_to(c, UP, buff=style.HUG_BUFF)
            if j % 2:  # wider than a column: every other one a line higher
                tag.shift(UP * (tag.height + style.TIGHT_BUFF))
            tags.add(tag)
        v_label = MathTex("V", font_size=style.BODY_SIZE * 1.3, color=style.VALUE)
        v_label.next_to(columns, LEFT, buff=style.GROUP_BUFF)
        kept = [j for j, c in enumerate(ex.colours) if c == ex.colours[i]]
        names = VGroup(
            *(
                MathTex(f"v_{{{j + 1}}}", font_size=style.BODY_SIZE, color=style.VALUE).next_to(
                    columns[j].copy().scale(ex.attention[i][j], about_edge=UP),
                    DOWN,
                    buff=style.HUG_BUFF,
                )
                for j in kept
            )
        )
        # the sum stands under the row's own place, the readout and ŷ to its right
        total = column(ex.head_out[i], f"{src}.head_out[{i}]").move_to(columns[i])
        total_label = MathTex(r"\sum_j w_j v_j", font_size=style.BODY_SIZE)
        total_label.next_to(total, DOWN, buff=style.ITEM_BUFF)
        total_frame = self._frame(VGroup(total, total_label))
        name = style.text(self.shared("training")["readout_label"], style.BODY_SIZE)
        readout = VGroup(
            SurroundingRectangle(name, color=style.FOREGROUND, buff=style.ITEM_BUFF), name
        )
        readout.next_to(total, RIGHT, buff=style.WIDE_BUFF * 1.5)
        predicted = VGroup(
            MathTex(r"\hat{y} =", font_size=style.BODY_SIZE * 1.2),
            self.number(f"{src}.predictions[{i}]", 2, style.BODY_SIZE),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        predicted.next_to(readout, RIGHT, buff=style.GROUP_BUFF)
        answer = VGroup(
            MathTex("y =", font_size=style.BODY_SIZE * 1.2, color=style.RESULT),
            self.number(f"{src}.targets[{i}]", 2, style.BODY_SIZE, style.RESULT),
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        answer.next_to(predicted, DOWN, buff=style.GROUP_BUFF).align_to(predicted, LEFT)
        arrows = VGroup(
            Arrow(total.get_right(), readout.get_left(), buff=style.HUG_BUFF),
            Arrow(readout.get_right(), predicted.get_left(), buff=style.HUG_BUFF),
        ).set_color(style.MUTED)
        return Mix(
            columns,
            tags,
            v_label,
            names,
            total,
            total_frame,
            total_label,
            readout,
            arrows,
            predicted,
            answer,
        )

    def _share_bar(self, row: int, height: float = SHARE_BAR) -> VGroup:
        """Row ``row``'s weights as one bar as wide as the side panel, each position's part in
        its colour: the parts always add up to the whole bar (softmax's total of 1)."""
        ex = self.example
        parts = ShareBar(ex.attention[row], self.side.width, height, self._fills(), edge_width=2)
        return parts.move_to(self.scores).align_to(self.side, LEFT)

    def _fills(self) -> list:
        """Each position's colour, as the fill of its part of a bar or its bar."""
        return [style.task_colour(self.data.colour_names[c]).fill for c in self.example.colours]

    @staticmethod
    def _exp_label(exp_bars: ExpBars) -> MathTex:
        """eˣ beside the towers the scores become."""
        label = MathTex("e^{x}", font_size=style.BODY_SIZE * EXP_LABEL_GROW)
        return label.next_to(exp_bars, RIGHT, buff=style.ITEM_BUFF)

    def _other_split(self, i: int) -> int:
        """A row whose colour has another count than row ``i``'s (its split differs)."""
        colours = self.example.colours
        count = colours.count(colours[i])
        return next(
            (r for r, c in enumerate(colours) if colours.count(c) != count),
            (i + 1) % len(colours),
        )

    def _why_equal(self) -> None:
        """Equal high scores for the same colour, low ones for the rest: softmax does the rest.
        The scores drop as signed bars while they are named; through exp they become towers
        (equal scores, equal towers; the low ones, nothing); laid end to end the towers are
        the denominator, and stretched to the row's bar of length 1 each high one is a third."""
        i, ex, src = self.focus_row, self.example, self.source
        same = tuple(j for j, c in enumerate(ex.colours) if c == ex.colours[i])
        other = tuple(j for j in range(ex.n) if j not in same)
        high = self.spoken(Mean(f"{src}.scores[{i}]", same), 1)
        low = self.spoken(Mean(f"{src}.scores[{i}]", other), 1)
        grid = self.scores[1]
        cells = [grid.get_cell(0, j) for j in range(ex.n)]
        frames = VGroup(
            *(SurroundingRectangle(cells[j], buff=0, color=style.HIGHLIGHT) for j in same)
        )
        exp_bars, stack, bar = self._exp_picture(cells)
        bars = exp_bars.get_bars()

        def drop(group: tuple[int, ...]) -> list:  # each named score drops its bar
            return [TransformFromCopy(cells[j], bars[j]) for j in group]

        self.say(
            "scores_say",
            FadeOut(self.mixed),  # the prediction's picture makes way for the scores
            FadeIn(self.scores),
            beats={
                "high": [
                    FadeIn(frames, lag_ratio=0.2),
                    Create(exp_bars.get_baseline()),
                    *drop(same),
                ],
                "low": [outline(*(cells[j] for j in other)), *drop(other)],
            },
            high=high,
            low=low,
        )
        towers, floor = exp_bars.get_towers(), exp_bars.get_floor()
        exp_label = self._exp_label(exp_bars)
        top = max(range(ex.n), key=lambda j: ex.scores[i][j])
        power = VGroup(
            MathTex("e", font_size=style.BODY_SIZE),
            self.number(f"{src}.scores[{i}][{top}]", 1, style.SMALL_SIZE),
        )
        power[1].next_to(power[0], UR, buff=0.02)
        power.next_to(towers[top].get_corner(UR), RIGHT, buff=style.HUG_BUFF)
        power.align_to(towers[top], UP)
        brace = Brace(stack, DOWN, buff=style.HUG_BUFF)
        total = style.text(self.words["denominator"], style.LABEL_SIZE)
        total.next_to(brace, DOWN, buff=style.HUG_BUFF)
        ruler = self._ruler(bar)
        weights = VGroup(
            *(
                self.number(
                    f"{src}.attention[{i}][{j}]",
                    2,
                    style.SMALL_SIZE,
                    style.ink_on(self._fills()[j]),
                ).move_to(bar[j])
                for j in same
            )
        )
        ticks = VGroup(  # where the low scores' parts are: hairlines, almost nothing
            *(
                Line(bar[j].get_top(), bar[j].get_top() + UP * style.ITEM_BUFF).set_stroke(
                    style.HIGHLIGHT, 4
                )
                for j in other
            )
        )
        self.say(
            "equal",
            FadeOut(frames),
            # through exp: the gaps become ratios, the equal ones stay equal
            *(ReplacementTransform(bars[j], towers[j]) for j in range(ex.n)),
            ReplacementTransform(exp_bars.get_baseline(), floor),  # no exp below 0
            FadeIn(exp_label, shift=LEFT * 0.2),
            FadeIn(power),
            beats={
                "share": [  # end to end: their total, the denominator
                    *(ReplacementTransform(towers[j], stack[j]) for j in range(ex.n)),
                    FadeOut(floor, exp_label, power),
                    GrowFromCenter(brace),
                    FadeIn(total),
                ],
                "little": [
                    LaggedStart(
                        AnimationGroup(  # divided by it: the row's bar of 1, a third each
                            *(ReplacementTransform(stack[j], bar[j]) for j in range(ex.n)),
                            FadeOut(brace, total),
                            Create(ruler[0]),
                            FadeIn(ruler[1:]),
                            FadeIn(weights),
                        ),
                        AnimationGroup(  # and the low ones: hairlines, almost nothing
                            Create(ticks),
                            outline(*(cells[j] for j in other)),
                        ),
                        lag_ratio=1.0,
                    )
                ],
            },
            run_time=EXP_STEP_TIME,  # each step long enough to be followed
        )
        self.equal_bar = VGroup(*bar, ruler, weights, ticks)  # leaves before the last picture

    def _exp_picture(self, cells: list) -> tuple[ExpBars, ShareBar, VGroup]:
        """The focus row's scores as bars under the score row, reaching down the panel; the
        same towers end to end (in their ratios) under the scores; and the row's bar
        of length 1 there."""
        i, ex = self.focus_row, self.example
        exps = [math.exp(s - max(ex.scores[i])) for s in ex.scores[i]]
        room = cells[0].get_bottom()[1] - style.content_area()[1] - style.GROUP_BUFF * 2
        exp_bars = ExpBars(ex.scores[i], cells[0].width, room, self._fills())
        exp_bars.next_to(VGroup(*cells), DOWN, buff=style.GROUP_BUFF * 2)
        exp_bars.shift(RIGHT * (cells[0].get_x() - exp_bars.get_bars()[0].get_x()))
        # laid down, the towers keep their ratios (drawn to fit the panel)
        stack = ShareBar(
            exps, self.side.width * STACK_SHARE, EQUAL_BAR, self._fills(), edge_width=2
        )
        stack.next_to(VGroup(*cells), DOWN, buff=style.GROUP_BUFF).align_to(self.side, LEFT)
        bar = self._share_bar(i, EQUAL_BAR).match_y(stack).align_to(self.side, LEFT)
        return exp_bars, stack, bar


@seam_builder
def learned_map(scene: AttentionMap) -> VGroup:
    """attention_map's last picture, patterns' first: the colour task's learned map (its
    ``example_name``) with its axes at the left, and at the right the strip and the loss
    curve with a dot at its last step (the map has just settled there), in attention_map's
    words. Leaves the
    scene reading that example, its grid and side panel those of the picture."""
    scene.example_name = AttentionMap.example_name
    scene.example = scene.data.example(scene.example_name)
    scene.source = f"examples.{scene.example_name}"
    own, scene.words = scene.words, scene.shared(AttentionMap.scene_key)
    board, strip = scene._layout()
    scene.words = own
    plot = scene._settling_plot(scene._panel_room())
    dot = Dot(plot.get_end(), radius=SETTLED_DOT, color=style.HIGHLIGHT)
    return VGroup(board, strip, plot, dot)
