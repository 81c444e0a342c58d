"""The office analogy (seed 000): Keys to compare with, Values to use, a Query to look.

Render alone with ``manim -ql scenes/chapters/office.py OfficeAnalogy``.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    Animation,
    AnimationGroup,
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
    ReplacementTransform,
    RoundedRectangle,
    ShowPassingFlash,
    Succession,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.diagrams import QUERY_UNIT, OfficeRoom, Shadows
from scenes.kit.emphasis import outline
from scenes.kit.numbers import Spoken, phrase
from scenes.kit.sums import SumLine
from scenes.kit.vectors import WeightBars

FLOOR_UNIT = 1.25  # scene units per unit of a Key
BAR_LENGTH = 3.0  # a weight of 1 in the bars (before the right panel is fitted)
BAR_HEIGHT = 0.32
DAYS_LENGTH = 4.2  # the days line, 0 to the largest Value
KEY_OPACITY = 0.35  # a Key's arrow: behind the shadows the narration is about
DAY_ROW = 0.3  # one row of the weighted sum on the days line


class OfficeAnalogy(LectureScene):
    """Five colleagues at their Keys, each holding a Value; a Query arrow sweeps and grows.

    Every stop shows the Keys' shadows on the Query's line with their scores, the weights as
    bars, and the Values' weighted sum laid end to end on a days line.
    Variants override :attr:`sweep_stops` (which stops of ``office.sweep`` to show).
    """

    scene_key = "office"
    named = ("office",)  # each person's name is in the words table, by their id
    reads = ("office",)
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
                    stroke_width=2,
                    max_tip_length_to_length_ratio=0.08,
                ).set_opacity(KEY_OPACITY)
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
        self.held = VGroup(
            *(
                p[2].copy().next_to(track, LEFT, buff=style.ITEM_BUFF)
                for p, track in zip(self.people, self.sums.tracks, strict=True)
            )
        )
        self.output = self._output("sweep", self.sweep_stops[0])
        days_side = VGroup(self.axis, self.sums, self.sums.terms, self.sums.end, self.held)
        self.panel = VGroup(self.bars, VGroup(days_side, self.output)).arrange(
            DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT
        )
        _, bottom, right, top = style.content_area()
        room_right = self.room.get_right()[0] + style.WIDE_BUFF
        self.fit = min(
            1.0, (right - room_right) / self.panel.width, (top - bottom) / self.panel.height
        )
        self.panel.scale(self.fit)
        self.panel.move_to([(room_right + right) / 2, (bottom + top) / 2, 0])
        below = self.panel.get_bottom()[1] - bottom  # room over the bars for a brace
        self.panel.shift(DOWN * min(below, style.GROUP_BUFF))
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
        self.say(
            "keys",
            FadeIn(self.people, lag_ratio=0.2),
            FadeOut(crowd),
            LaggedStart(*(GrowArrow(a) for a in self.key_arrows), lag_ratio=0.2),
            run_time=2,
        )
        self.say(
            "values",
            outline(*days, colour=style.VALUE),
            beats={
                "days": [
                    FadeIn(self.axis),
                    self.sums.draw_tracks(),
                    *(TransformFromCopy(d, h) for d, h in zip(days, self.held, strict=True)),
                ]
            },
        )
        first = self.office.sweep[self.sweep_stops[0]]
        self.arrow = self._arrow(first.query)
        self.say(
            "query",
            ReplacementTransform(self.bubble, self.arrow),
            hue=self.query_colour_name(),
        )

    def _scores(self, kind: str, k: int) -> None:
        """The scores as shadows on the arrow's line, then the weights they become."""
        stop = getattr(self.office, kind)[k]
        self.shadows = shadows = self._shadows(kind, k)
        n = len(self.office.people)
        front = sorted(range(n), key=lambda j: -stop.scores[j])
        bars = self.bars
        self.say(
            "weights",
            Create(shadows.line),
            LaggedStart(*(Create(d) for d in shadows.drops), lag_ratio=0.2),
            then=[[FadeIn(shadows.feet), FadeIn(shadows.labels)]],
            beats={
                "bars": [
                    FadeIn(VGroup(*(VGroup(r[0], r[1]) for r in bars.rows))),
                    *(TransformFromCopy(shadows.get_label(j), bars.rows[j][3]) for j in range(n)),
                    *(GrowFromEdge(r[2], LEFT) for r in bars.rows),
                ],
                "order": [outline(*(shadows.get_foot(j) for j in front))],
                "top": [self._name_top(stop.weights)],
            },
            **self._about(kind, k),
        )

    def _name_top(self, weights) -> object:
        """The person most listened to, then their bar: one after the other."""
        j = top_index(weights)
        return outline(VGroup(self.people[j][0], self.people[j][1]), self.bars.rows[j])

    def _average(self, kind: str, k: int) -> None:
        self.say(
            "output",
            outline(self.arrow, colour=style.QUERY),
            beats={
                "avg": [
                    Succession(
                        self.sums.lay_terms(),
                        AnimationGroup(Create(self.sums.end), FadeIn(self.output)),
                    )
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
        stop = getattr(self.office, kind)[k]
        arrow, shadows = self._arrow(stop.query), self._shadows(kind, k)
        bars, sums, output = self._bars(kind, k), self._sums(kind, k), self._output(kind, k)
        moves = [
            ReplacementTransform(self.arrow, arrow),
            ReplacementTransform(self.shadows, shadows),
            ReplacementTransform(self.bars, bars),
            ReplacementTransform(self.sums.terms, sums.terms),
            ReplacementTransform(self.sums.end, sums.end),
            ReplacementTransform(self.output, output),
        ]
        self.arrow, self.shadows, self.bars, self.sums, self.output = (
            arrow,
            shadows,
            bars,
            sums,
            output,
        )
        return moves

    def _move_to(self, kind: str, k: int, words: str, marked: bool = False, **fields) -> None:
        stop = getattr(self.office, kind)[k]
        moves = self._moves(kind, k)
        beats = {}
        if marked:
            beats = {
                "top": [self._name_top(stop.weights)],
                "out": [outline(self.output[-1])],
            }
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
        moves = self._moves("grow", last)
        self.say(
            "grow_end",
            *moves,
            run_time=1.5,
            beats={
                "rise": [GrowFromCenter(self._rise(j, last))],
                "sharp": [outline(self.arrow, colour=style.QUERY)],
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
            },
        )
