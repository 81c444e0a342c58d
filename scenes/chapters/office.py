"""The office analogy (seed 000): Keys to compare with, Values to use, a Query to look.

Render alone with ``manim -ql scenes/chapters/office.py OfficeAnalogy``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStartMap,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.diagrams import QUERY_UNIT, OfficeRoom
from scenes.kit.emphasis import outline
from scenes.kit.numbers import Spoken, phrase
from scenes.kit.vectors import WeightBars

FLOOR_UNIT = 1.25  # scene units per unit of a Key


class OfficeAnalogy(LectureScene):
    """Five colleagues at their Keys, each holding a Value; a Query arrow sweeps and grows.

    Variants override :attr:`sweep_stops` (which stops of ``office.sweep`` to show).
    """

    scene_key = "office"
    named = ("office",)  # each person's name is in the words table, by their id
    reads = ("office",)
    sweep_stops = (0, 2, 6)  # three distinct averages (stops 0 and 5 both come to 6.29 days)

    def construct(self) -> None:
        self.office = self.data.office
        title = self.make_title()
        floor = self._build_floor()
        self.bars = self._bars("sweep", self.sweep_stops[0])
        self.output = self._output("sweep", self.sweep_stops[0])
        side = VGroup(self.bars, self.output)
        style.place(VGroup(floor, side).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        self.add(title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(self.room))
        self.say("keys", FadeIn(self.people, lag_ratio=0.2), run_time=2)
        held = VGroup(
            *(
                SurroundingRectangle(p[2], color=style.VALUE, buff=style.HUG_BUFF)
                for p in self.people
            )
        )
        self.say(
            "values",
            LaggedStartMap(Create, held, lag_ratio=0.3),
            beats={"days": [outline(*(p[2] for p in self.people), colour=style.VALUE)]},
        )
        self.play(FadeOut(held))
        first = self.office.sweep[self.sweep_stops[0]]
        self.arrow = self._arrow(first.query)
        self.say("query", GrowArrow(self.arrow), hue=self.query_colour_name())
        self.say(
            "weights",
            FadeIn(self.bars),
            beats={"top": [outline(self.bars.rows[top_index(first.weights)])]},
            **self._about("sweep", self.sweep_stops[0]),
        )
        self.say("output", FadeIn(self.output), **self._about("sweep", self.sweep_stops[0]))
        for k, stop in enumerate(self.sweep_stops[1:], start=1):
            self._move_to("sweep", stop, f"sweep_{k}")
        self._grow()
        self.say(
            "outro",
            beats={
                "key": [outline(*(p[0] for p in self.people), colour=style.KEY)],
                "value": [outline(*(p[2] for p in self.people), colour=style.VALUE)],
            },
        )

    # --- building ----------------------------------------------------------------------
    def _build_floor(self) -> OfficeRoom:
        office = self.office
        names = [self.words[person] for person in office.people]
        floor = OfficeRoom(names, office.keys, office.values, self.words["days"], unit=FLOOR_UNIT)
        self.room, self.people = floor.room, floor.people
        self.floor = floor
        return floor

    def _arrow(self, query: tuple[float, ...]) -> Arrow:
        start, end = self.room.get_center(), self.floor.point(query, QUERY_UNIT)
        return Arrow(start, end, buff=0, color=style.QUERY, stroke_width=6)

    def _bars(self, kind: str, k: int) -> WeightBars:
        stop = getattr(self.office, kind)[k]
        labels = [
            style.text(self.words[p], style.LABEL_SIZE, style.KEY) for p in self.office.people
        ]
        bars = WeightBars(
            labels, stop.weights, f"office.{kind}[{k}].weights", length=3.2, bar_height=0.42
        )
        return bars.move_to(self.bars) if hasattr(self, "bars") else bars

    def _output(self, kind: str, k: int) -> VGroup:
        number = self.number(f"office.{kind}[{k}].output", 2)
        line = phrase(self.words["output_line"], style.BODY_SIZE, style.RESULT, out=number)
        return line.next_to(self.bars, DOWN, buff=style.SECTION_BUFF).align_to(self.bars, LEFT)

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

    def _move_to(self, kind: str, k: int, words: str, **fields: Spoken) -> None:
        stop = getattr(self.office, kind)[k]
        bars, output = self._bars(kind, k), self._output(kind, k)
        self.say(
            words,
            ReplacementTransform(self.arrow, arrow := self._arrow(stop.query)),
            ReplacementTransform(self.bars, bars),
            ReplacementTransform(self.output, output),
            run_time=1.5,
            **self._about(kind, k),
            **fields,
        )
        self.arrow, self.bars, self.output = arrow, bars, output

    def _grow(self) -> None:
        grow = self.office.grow
        last = len(grow) - 1
        self._move_to("grow", 0, "grow_start")
        for k in range(1, last):
            self._move_to("grow", k, "grow_step")
        self._move_to(
            "grow",
            last,
            "grow_end",
            first=self._top_share("grow", 0),
            last=self._top_share("grow", last),
        )
