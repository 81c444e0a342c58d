"""The office analogy (seed 000): Keys to compare with, Values to use, a Query to look.

Render alone with ``manim -ql scenes/chapters/office.py OfficeAnalogy``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    ApplyMethod,
    Arrow,
    Brace,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromCenter,
    GrowFromEdge,
    GrowFromPoint,
    LaggedStart,
    Line,
    NumberLine,
    Rectangle,
    ReplacementTransform,
    RoundedRectangle,
    ShowPassingFlash,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.diagrams import QUERY_UNIT, OfficeRoom, Shadows
from scenes.kit.emphasis import outline
from scenes.kit.numbers import ShownNumber, Spoken, Sum, phrase
from scenes.kit.seams import seam_builder
from scenes.kit.sums import SumLine
from scenes.kit.vectors import ShareBar, WeightBars

FLOOR_UNIT = 1.25  # scene units per unit of a Key
BAR_LENGTH = 3.0  # a weight of 1 in the bars (before the right panel is fitted)
BAR_HEIGHT = 0.32
DAYS_LENGTH = 4.2  # the days line, 0 to the largest Value
KEY_OPACITY = 0.35  # a Key's arrow: behind the shadows the narration is about
DAY_ROW = 0.4  # one row of the weighted sum on the days line
BRACE_ROOM = 3 * style.ITEM_BUFF
BUBBLE_SHRINK = 0.6
QUIET = 0.4  # names and days while the shadows are the subject; scores not named
# a stop of the Query: its arrow, shadows, bars, sum, output line and unit bar
Stop = tuple[Arrow, Shadows, WeightBars, SumLine, VGroup, VGroup]


class OfficeFloor:
    """The office's pictures, built from the data file in the office's words: the room, the
    Key arrows, the right panel, and at each stop the Query arrow and what it redraws.

    :class:`OfficeAnalogy` builds them for itself; :func:`focused_office` for the next chapter,
    which opens on the office's last picture (through :class:`_Rebuilt`). Either provides
    ``words`` (the office's table), ``office`` (``data.office``), ``number`` (the scene's, so
    the numbers gate sees every number shown) and ``sweep_stops``.
    """

    words: Mapping[str, str]
    office: Any  # the data file's office part
    sweep_stops: tuple[int, ...]
    number: Callable[..., ShownNumber]

    # --- building ----------------------------------------------------------------------
    def _lay_out(self) -> None:
        """The room at the content area's full height on the left; on the right the panel
        the question, the weights and the days line share."""
        office = self.office
        names = [self.words[person] for person in office.people]
        self.floor = OfficeRoom(
            names, office.keys, office.values, self.words["days"], unit=FLOOR_UNIT
        )
        self.room, self.people = self.floor.room, self.floor.people
        style.place(self.floor, aligned=LEFT, grow=2)
        self.centre = self.room.get_center()
        self.you = Dot(self.centre, radius=0.09, color=style.QUERY)
        you_name = style.text(self.words["you"], style.LABEL_SIZE, style.QUERY)
        you_name.next_to(self.you, DOWN + LEFT, buff=style.TIGHT_BUFF)
        self.you_group = VGroup(self.you, you_name)
        self.key_arrows = VGroup(
            *(
                Arrow(
                    self.centre,
                    p[0].get_center(),
                    buff=style.HUG_BUFF * 1.5,
                    color=style.KEY,
                    stroke_width=4,
                    max_tip_length_to_length_ratio=0.08,
                )
                for p in self.people
            )
        )
        # the right panel: weights over the days line, fitted to the space the room leaves
        self.bars = self._bars("sweep", self.sweep_stops[0])
        axis = NumberLine(x_range=[0, max(office.values), 1], length=DAYS_LENGTH)
        axis.set_color(style.MUTED)
        ticks = VGroup(
            *(
                style.tick_label(str(n)).next_to(axis.n2p(n), DOWN, buff=style.ITEM_BUFF)
                for n in (0, round(max(office.values) / 2), round(max(office.values)))
            )
        )
        self.axis = VGroup(axis, ticks)
        self.sums = self._sums("sweep", self.sweep_stops[0])
        # each days row named as its weight bar is, its days at the track's end
        self.row_names = VGroup(
            *(
                p[1]
                .copy()
                .scale_to_fit_height(min(p[1].height, track.height))
                .next_to(track, LEFT, buff=style.ITEM_BUFF)
                for p, track in zip(self.people, self.sums.tracks, strict=True)
            )
        )
        self.held = VGroup(
            *(
                p[2].copy().next_to(track, RIGHT, buff=style.TIGHT_BUFF)
                for p, track in zip(self.people, self.sums.tracks, strict=True)
            )
        )
        self.output = self._output("sweep", self.sweep_stops[0])
        self.unit = self._unit("sweep", self.sweep_stops[0])
        days_side = VGroup(
            self.axis, self.sums, self.sums.terms, self.sums.end, self.held, self.row_names
        )
        self.panel = VGroup(self.bars, self.unit, VGroup(days_side, self.output)).arrange(
            DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT
        )
        self.unit.align_to(self.bars.rows[0][1], LEFT)
        _, bottom, right, top = style.content_area()
        room_right = self.room.get_right()[0] + style.WIDE_BUFF
        top -= BRACE_ROOM  # room over the top bar for the brace at the grow's end
        self.fit = min(
            1.0, (right - room_right) / self.panel.width, (top - bottom) / self.panel.height
        )
        self.panel.scale(self.fit)
        self.panel.move_to([(room_right + right) / 2, (bottom + top) / 2, 0])
        self.panel.align_to([0, bottom, 0], DOWN)
        question = style.text(self.words["question"], style.BODY_SIZE)
        frame = RoundedRectangle(
            corner_radius=0.2,
            width=question.width + 2 * style.GROUP_BUFF,
            height=question.height + 2 * style.GROUP_BUFF,
        ).set_stroke(style.QUERY, width=3)
        self.bubble = VGroup(frame, question.move_to(frame)).move_to(self.bars)

    def _arrow(self, query) -> Arrow:
        end = self.centre + self.floor.offset(query, QUERY_UNIT)
        return Arrow(self.centre, end, buff=0, color=style.QUERY, stroke_width=6)

    def _bars(self, kind: str, k: int) -> WeightBars:
        stop = getattr(self.office, kind)[k]
        labels = [
            style.text(self.words[p], style.LABEL_SIZE, style.KEY) for p in self.office.people
        ]
        bars = WeightBars(
            labels,
            stop.weights,
            f"office.{kind}[{k}].weights",
            length=BAR_LENGTH,
            bar_height=BAR_HEIGHT,
        )
        if hasattr(self, "panel"):  # fitted as the first, in its place
            bars.scale(self.fit).align_to(self.bars, UP + LEFT)
        return bars

    def _unit(self, kind: str, k: int) -> VGroup:
        """The weights laid end to end in one bar as long as a weight of 1, and their total."""
        stop = getattr(self.office, kind)[k]
        fit = getattr(self, "fit", 1.0)
        height = BAR_HEIGHT * fit
        track = Rectangle(width=BAR_LENGTH * fit, height=height).set_stroke(style.MUTED, width=1)
        pieces = ShareBar(stop.weights, BAR_LENGTH * fit, height, style.WEIGHT)
        pieces.move_to(track).align_to(track, LEFT)
        total = self.number(Sum(f"office.{kind}[{k}].weights"), 2, color=style.WEIGHT)
        total.scale(fit).next_to(track, RIGHT, buff=style.ITEM_BUFF)
        unit = VGroup(track, pieces, total)
        if hasattr(self, "unit"):
            unit.align_to(self.unit, UP + LEFT)
        return unit

    def _sums(self, kind: str, k: int) -> SumLine:
        stop = getattr(self.office, kind)[k]
        line = self.axis[0]
        pitch = DAY_ROW * line.get_length() / DAYS_LENGTH
        sums = SumLine(line, self.office.values, stop.weights, pitch=pitch)
        return sums

    def _output(self, kind: str, k: int) -> VGroup:
        number = self.number(f"office.{kind}[{k}].output", 2)
        line = phrase(self.words["output_line"], style.LABEL_SIZE, style.RESULT, out=number)
        line.scale(getattr(self, "fit", 1.0)).next_to(
            self.axis, DOWN, buff=style.ITEM_BUFF
        ).align_to(self.axis, LEFT)
        return line

    def _shadows(self, kind: str, k: int) -> Shadows:
        stop = getattr(self.office, kind)[k]
        scores = [
            self.number(f"office.{kind}[{k}].scores[{j}]", 2, color=style.HIGHLIGHT)
            for j in range(len(self.office.people))
        ]
        direction = self.floor.offset(stop.query, QUERY_UNIT)
        u = direction / np.linalg.norm(direction)
        half = np.array([self.room.width, self.room.height]) / 2 - style.GROUP_BUFF
        reach = min(half[i] / abs(u[i]) for i in (0, 1) if abs(u[i]) > 1e-6)  # inside the walls
        points = [p[0].get_center() for p in self.people]
        names = [part for p in self.people for part in p]
        return Shadows(self.centre, direction, points, scores, reach, avoid=names, within=self.room)

    def _stop(self, kind: str, k: int) -> Stop:
        """What a stop of the Query draws: its arrow, the shadows and scores, the bars, the sum
        (whose terms and end are drawn; its tracks are the first stop's), the output line and
        the unit bar, each where the first stop's stands."""
        stop = getattr(self.office, kind)[k]
        arrow, shadows = self._arrow(stop.query), self._shadows(kind, k)
        bars, sums, output = self._bars(kind, k), self._sums(kind, k), self._output(kind, k)
        return arrow, shadows, bars, sums, output, self._unit(kind, k)

    def _rest(self, weights) -> list[VMobject]:
        """The scores and bars of everyone but the person most listened to: what dims."""
        j = top_index(weights)
        return [
            m
            for i in range(len(weights))
            if i != j
            for m in (self.shadows.labels[i], *self._bright(self.bars.rows[i]))
        ]

    @staticmethod
    def _bright(row: VGroup) -> tuple:
        """A bar row's parts that dim and come back (its name, bar and weight; not its track,
        which has no fill)."""
        return row[0], row[2], row[3]


class OfficeAnalogy(OfficeFloor, LectureScene):
    """Five colleagues at their Keys, each holding a Value; a Query arrow sweeps and grows.

    Every stop shows the Keys' shadows on the Query's line with their scores, the weights as
    bars, and the Values' weighted sum laid end to end on a days line.
    Variants override :attr:`sweep_stops` (which stops of ``office.sweep`` to show).
    """

    scene_key = "office"
    named = ("office",)  # each person's name is in the words table, by their id
    reads = ("office",)
    ends_on = "focused_office"  # built at the end of this file; qkv opens on it
    sweep_stops = (0, 2, 6)  # three distinct averages (stops 0 and 5 both come to 6.29 days)

    def construct(self) -> None:
        self.office = self.data.office
        self.add(self.make_title())  # the title at once: no frame is only a title being written
        self._lay_out()
        first = self.sweep_stops[0]
        self._open()
        self._scores("sweep", first)
        self._average("sweep", first)
        for k, stop in enumerate(self.sweep_stops[1:], start=1):
            self._move_to("sweep", stop, f"sweep_{k}", marked=True)
        self._grow()
        self._outro()

    # --- the lines -----------------------------------------------------------------------
    def _open(self) -> None:
        days = [p[2] for p in self.people]
        crowd = VGroup(*(p[0].copy().set_opacity(style.DIMMED) for p in self.people))
        self.say(
            "intro",
            FadeIn(self.room),
            FadeIn(self.you_group),
            FadeIn(crowd, lag_ratio=0.2),
            beats={"ask": [GrowFromPoint(self.bubble, self.you.get_center())]},
        )
        spots = VGroup(*(VGroup(p[0], p[1]) for p in self.people))
        self.say(
            "keys",
            outline(*crowd, colour=style.KEY),
            beats={
                "key": [
                    LaggedStart(
                        *(
                            AnimationGroup(GrowArrow(a), FadeIn(spot, target_position=self.centre))
                            for a, spot in zip(self.key_arrows, spots, strict=True)
                        ),
                        lag_ratio=0.4,
                    ),
                    FadeOut(crowd),
                ]
            },
        )
        self.say(
            "values",
            ApplyMethod(self.key_arrows.set_opacity, KEY_OPACITY),
            *(GrowFromPoint(d, p[0].get_center()) for d, p in zip(days, self.people, strict=True)),
            then=[
                [
                    *(
                        TransformFromCopy(p[1], n)
                        for p, n in zip(self.people, self.row_names, strict=True)
                    ),
                    *(TransformFromCopy(d, h) for d, h in zip(days, self.held, strict=True)),
                ]
            ],
            beats={"days": [FadeIn(self.axis), self.sums.draw_tracks()]},
        )
        first = self.office.sweep[self.sweep_stops[0]]
        self.arrow = self._arrow(first.query)
        tip = self.arrow.get_end()
        self.say(
            "query",
            GrowArrow(self.arrow),
            self.bubble.animate.scale(BUBBLE_SHRINK),  # it waits, small, to be the arrow
            beats={"means": [FadeOut(self.bubble, target_position=tip, scale=0.1)]},
            hue=self.query_colour_name(),
        )

    def _quiet(self) -> Animation:
        """Names and days dimmed: the shadows and their scores are what is read now."""
        return AnimationGroup(
            ApplyMethod(self.key_arrows.set_opacity, KEY_OPACITY),
            *(ApplyMethod(VGroup(p[1], p[2]).set_opacity, QUIET) for p in self.people),
        )

    def _scores(self, kind: str, k: int) -> None:
        """The scores as shadows on the arrow's line, then the weights they become."""
        stop = getattr(self.office, kind)[k]
        self.shadows = shadows = self._shadows(kind, k)
        n = len(self.office.people)
        front = sorted(range(n), key=lambda j: -stop.scores[j])
        bars = self.bars
        pitch = bars.rows[0].get_center()[1] - bars.rows[1].get_center()[1]
        by_order = [front.index(j) for j in range(n)]
        drops = [DOWN * pitch * (by_order[j] - j) for j in range(n)]
        unit = self.unit
        # the dot products first, where the scores will be: ÷√2 turns each into its score
        dots = VGroup(
            *(
                self.number(f"office.{kind}[{k}].dots[{j}]", 2, color=style.MUTED)
                .scale_to_fit_height(shadows.labels[j].height)
                .move_to(shadows.labels[j])
                for j in range(n)
            )
        )
        # the weights' pieces of the unit bar, largest first: where each goes on <more>
        ranked = unit[1].copy()
        VGroup(*(ranked[j] for j in front)).arrange(RIGHT, buff=0).align_to(unit[0], LEFT)
        sorted_unit = [ranked[j].get_center() for j in range(n)]
        self.say(
            "weights",
            Create(shadows.line),
            ApplyMethod(self.key_arrows.set_opacity, 1),  # each Key, against the Query
            LaggedStart(*(Create(d) for d in shadows.drops), lag_ratio=0.2),
            then=[
                [
                    FadeIn(shadows.feet),
                    *(
                        GrowFromPoint(d, f.get_center())
                        for d, f in zip(dots, shadows.feet, strict=True)
                    ),
                ]
            ],
            beats={
                "scale": [
                    self._quiet(),
                    LaggedStart(
                        *(
                            ReplacementTransform(d, lab)
                            for d, lab in zip(dots, shadows.labels, strict=True)
                        ),
                        lag_ratio=0.2,
                    ),
                ],
                "bars": [
                    FadeIn(VGroup(*(VGroup(r[0], r[1]) for r in bars.rows))),
                    *(TransformFromCopy(shadows.get_label(j), bars.rows[j][3]) for j in range(n)),
                    *(GrowFromEdge(r[2], LEFT) for r in bars.rows),
                ],
                "one": [
                    Create(unit[0]),
                    *(TransformFromCopy(bars.rows[j][2], unit[1][j]) for j in range(n)),
                    FadeIn(unit[2]),
                ],
                "order": [
                    *(ApplyMethod(r.shift, d) for r, d in zip(bars.rows, drops, strict=True)),
                    outline(*(shadows.get_foot(j) for j in front)),
                ],
                "more": [
                    *(ApplyMethod(unit[1][j].move_to, sorted_unit[j]) for j in range(n)),
                ],
                "top": [
                    *(ApplyMethod(r.shift, -d) for r, d in zip(bars.rows, drops, strict=True)),
                    *(ApplyMethod(unit[1][j].move_to, unit[1][j].get_center()) for j in range(n)),
                    self._name_top(stop.weights),
                ],
                "rest": [self._fade_rest(stop.weights)],
            },
            **self._about(kind, k),
        )

    def _fade_rest(self, weights) -> Animation:
        """The scores and bars of everyone but the person most listened to, dimmed."""
        return AnimationGroup(*(ApplyMethod(m.set_opacity, QUIET) for m in self._rest(weights)))

    def _name_top(self, weights) -> object:
        """The person most listened to, then their bar: one after the other."""
        j = top_index(weights)
        return outline(VGroup(self.people[j][0], self.people[j][1]), self.bars.rows[j])

    def _average(self, kind: str, k: int) -> None:
        n = len(self.office.people)
        self.say(
            "output",
            LaggedStart(
                *(TransformFromCopy(self.unit[1][j], self.sums.terms[j]) for j in range(n)),
                lag_ratio=0.4,
            ),
            *(ApplyMethod(m.set_opacity, 1) for r in self.bars.rows for m in self._bright(r)),
            run_time=2,
            beats={
                "avg": [
                    GrowFromEdge(self.sums.end, DOWN),
                    FadeIn(self.output, shift=UP * style.ITEM_BUFF),
                ]
            },
            **self._about(kind, k),
        )

    # --- moving the Query --------------------------------------------------------------
    def _about(self, kind: str, k: int) -> dict[str, str | Spoken]:
        """Words for a stop: who gets the most attention (as the narration names them: the
        person's ``<name>_say`` line where there is one, else their label), and the average."""
        stop = getattr(self.office, kind)[k]
        top = self.office.people[top_index(stop.weights)]
        out = self.spoken(f"office.{kind}[{k}].output", 2)
        said = f"{top}_say" if f"{top}_say" in self.words else top
        return {"top": self.words[said], "out": out}

    def _top_share(self, kind: str, k: int) -> Spoken:
        """The largest weight of a stop, as the narration says it."""
        weights = getattr(self.office, kind)[k].weights
        j = top_index(weights)
        return self.spoken(f"office.{kind}[{k}].weights[{j}]", 2)

    def _moves(self, kind: str, k: int) -> list[Animation]:
        """Everything a stop redraws: the arrow, the shadows and scores, the bars, the sum
        (each old one replaced by the new, so what is on screen reads the stop's numbers)."""
        arrow, shadows, bars, sums, output, unit = self._stop(kind, k)
        moves = [
            ReplacementTransform(self.arrow, arrow),
            ReplacementTransform(self.shadows, shadows),
            ReplacementTransform(self.sums.terms, sums.terms),
            ReplacementTransform(self.sums.end, sums.end),
            ReplacementTransform(self.output, output),
            ReplacementTransform(self.bars, bars),
            ReplacementTransform(self.unit, unit),
        ]
        self.arrow, self.shadows, self.bars, self.sums, self.output, self.unit = (
            arrow,
            shadows,
            bars,
            sums,
            output,
            unit,
        )
        return moves

    def _move_to(self, kind: str, k: int, words: str, marked: bool = False, **fields) -> None:
        stop = getattr(self.office, kind)[k]
        moves = self._moves(kind, k)
        beats = {}
        if marked:  # the average re-laid when it is said
            beats = {
                "top": [self._name_top(stop.weights), self._fade_rest(stop.weights)],
                "out": moves[2:5],
            }
            moves = moves[:2] + moves[5:]
        self.say(
            words,
            *moves,
            run_time=1.5,
            beats=beats,
            **self._about(kind, k),
            **fields,
        )

    def _grow(self) -> None:
        grow = self.office.grow
        last = len(grow) - 1
        self._move_to("grow", 0, "grow_start")
        j = top_index(grow[last].weights)
        row = self.bars.rows[j]
        self.ghost = Line(row[1].get_top(), row[1].get_bottom()).set_stroke(
            style.HIGHLIGHT, width=4
        )
        self.ghost.move_to(row[2].get_right())
        self.play(Create(self.ghost), run_time=0.5)
        for k in range(1, last):
            self._move_to("grow", k, "grow_step")
        rise = self._rise(j, last)
        moves = self._moves("grow", last)
        self.say(
            "grow_end",
            *moves[:-2],
            run_time=1.5,
            beats={
                "rise": [*moves[-2:], GrowFromCenter(rise)],
                "sharp": [
                    outline(self.arrow, colour=style.QUERY),
                    self._fade_rest(grow[last].weights),
                ],
            },
            first=self._top_share("grow", 0),
            last=self._top_share("grow", last),
        )

    def _rise(self, j: int, last: int) -> Brace:
        """A brace over the top bar from the ghost (the first stop's share) to its end now."""
        bars = self._bars("grow", last)
        end = bars.rows[j][2].get_right()
        span = Line(self.ghost.get_top(), [end[0], self.ghost.get_top()[1], 0])
        brace = Brace(span, UP, buff=style.TIGHT_BUFF, color=style.HIGHLIGHT)
        brace.stretch_to_fit_height(style.ITEM_BUFF).next_to(span, UP, buff=style.TIGHT_BUFF)
        self.brace = brace  # flat, to stay under the title
        return brace

    def _outro(self) -> None:
        flashes = [
            ShowPassingFlash(d.copy().set_stroke(style.HIGHLIGHT, width=6), time_width=0.6)
            for d in self.shadows.drops
            if d.submobjects
        ]
        self.say(
            "outro",
            FadeOut(self.brace, self.ghost),
            beats={
                "key": [LaggedStart(*flashes, lag_ratio=0.15), outline(self.shadows.feet)],
                "value": [
                    *(
                        TransformFromCopy(p[2], term)
                        for p, term in zip(self.people, self.sums.terms, strict=True)
                    ),
                    outline(self.output[-1]),
                ],
                "differ": [
                    ApplyMethod(self.key_arrows.set_opacity, 1),
                    *(ApplyMethod(VGroup(p[1], p[2]).set_opacity, 1) for p in self.people),
                ],
            },
        )


class _Rebuilt(OfficeFloor):
    """The office's pictures built for another scene (the chapter after it): in the office's
    words (its class declares ``tables = ("office",)``), its numbers made by that scene."""

    def __init__(self, scene: LectureScene) -> None:
        self.words = scene.shared(OfficeAnalogy.scene_key)
        self.office = scene.data.office
        self.number = scene.number
        self.sweep_stops = OfficeAnalogy.sweep_stops


@seam_builder
def focused_office(scene: LectureScene) -> VGroup:
    """office's last picture, qkv's first: the room with its Key arrows, names and days, the
    Query arrow at the grow's last stop (longest, towards the person most listened to) with
    its shadows and scores, and the right panel: the bars, the unit bar (Σ 1.00), the days
    line with the weighted sum and the average; the other people's scores and bars dimmed.

    Its parts are in the order the office draws them at its end (the Key arrows over the
    Query arrow, the names and days over the shadows). ``roles`` are the three the next
    chapter carries, each a part of its own: the Query arrow, and the Key arrow and the
    Value (days) of the person it points at."""
    floor = _Rebuilt(scene)
    floor._lay_out()
    grow = floor.office.grow
    last = len(grow) - 1
    query, floor.shadows, floor.bars, sums, output, unit = floor._stop("grow", last)
    floor.key_arrows.set_opacity(1)  # as the outro leaves them: the Keys, names and days full
    for person in floor.people:
        VGroup(person[1], person[2]).set_opacity(1)
    for m in floor._rest(grow[last].weights):  # the others' scores and bars dim
        m.set_opacity(QUIET)
    j = top_index(grow[last].weights)
    key, value = floor.key_arrows[j], floor.people[j][2]
    others = VGroup(*(a for a in floor.key_arrows if a is not key))
    said = VGroup(*(m for p in floor.people for m in p[1:] if m is not value))
    under = VGroup(
        floor.room,
        floor.you_group,
        *(p[0] for p in floor.people),
        floor.row_names,
        floor.held,
        floor.axis,
        floor.sums,
    )
    days = VGroup(sums.end, output, unit, sums.terms)
    picture = VGroup(under, query, key, others, days, floor.shadows, floor.bars, value, said)
    picture.roles = VGroup(query, key, value)
    return picture
