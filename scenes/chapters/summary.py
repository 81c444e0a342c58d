"""Summary (seed 000): the lecture's points on one screen, and the one knob that the office
arrow's length, the temperature T and √d all turn: how peaked the softmax is.

Render alone with ``manim -ql scenes/chapters/summary.py Summary``.
"""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    MathTex,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.components import WeightBars
from scenes.kit.numbers import phrase

IT = "tokens.it_cat"
POINTS = ("idea", "roles", "steps", "learned", "pitfalls", "knob", "map")
KNOBS = ("knob_arrow", "knob_t", "knob_sqrt_d")


class Summary(LectureScene):
    """Seven points appear one by one; the formula, then the knob turned across T, beside them.

    Variants override :attr:`temperatures` (indices into the data's temperature maps, in the
    order the knob turns).
    """

    scene_key = "summary"
    reads = ("tokens.it_cat",)
    temperatures = (0, 2, 4, 5)

    def construct(self) -> None:
        self.title = self.make_title()
        points = VGroup(
            *(style.text(self.words[f"point_{p}"], style.BODY_SIZE) for p in POINTS)
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        frames = VGroup(
            *(SurroundingRectangle(p, color=style.HIGHLIGHT, buff=style.HUG_BUFF) for p in points)
        )
        panel = self._formula()
        knob = self._knob()
        layout = VGroup(VGroup(frames, points), knob.group).arrange(RIGHT, buff=style.WIDE_BUFF)
        panel.move_to(knob.group)  # the formula, then the knob, in the same place
        style.place(VGroup(layout, panel))
        frame = None
        for k, key in enumerate(POINTS):
            new = frames[k]
            focus = [FadeIn(points[k], shift=RIGHT * 0.2)]
            focus.append(Create(new) if frame is None else ReplacementTransform(frame, new))
            frame = new
            extra = {
                "idea": [Write(self.title)],
                "steps": [FadeIn(panel, lag_ratio=0.3)],
                "learned": [FadeOut(panel)],
                "knob": [FadeIn(knob.knobs, lag_ratio=0.3), *map(GrowArrow, knob.arrows)],
                "map": [FadeOut(VGroup(knob.knobs, knob.arrows, knob.panels[-1]))],
            }.get(key, [])
            self.say(key, *extra, *focus, then=[[FadeIn(knob.panels[0])]] if key == "knob" else ())
            if key == "knob":
                # A large scale (the first panel, peaked) is on screen; the knob turns down,
                # panel by panel, when the words reach the small scale.
                turns = Succession(*(ReplacementTransform(a, b) for a, b in pairwise(knob.panels)))
                self.say(
                    "knob_turn",
                    Indicate(knob.panels[0], color=style.HIGHLIGHT),
                    beats={"small": [turns]},
                    run_time=3,
                )

    def _formula(self) -> VGroup:
        """The three lines of attention, each symbol in the colour of its role."""
        q, k, v = style.QUERY, style.KEY, style.VALUE
        lines = VGroup(
            MathTex(r"\mathrm{score}_{ij} =", "q_i", r"\cdot", "k_j", r"/ \sqrt{d}", font_size=40),
            MathTex(r"w_{ij} = \mathrm{softmax}_j(\mathrm{score}_{ij})", font_size=40),
            MathTex(r"\mathrm{out}_i = \sum_j w_{ij}", "v_j", font_size=40),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        lines[0][1].set_color(q)
        lines[0][3].set_color(k)
        lines[2][1].set_color(v)
        return lines

    def _knob_panel(self, k: int) -> VGroup:
        """The it/cat row's weights at temperature index ``k``, with its T."""
        c = self.data.it_cat
        i = c.query_index
        temp = c.temperatures[k]
        bars = WeightBars(
            [style.text(t, style.LABEL_SIZE) for t in c.tokens],
            temp.weights[i],
            f"{IT}.temperatures[{k}].weights[{i}]",
            length=2.0,
            bar_height=0.26,
        )
        t = self.number(f"{IT}.temperatures[{k}].t", 2)
        return VGroup(phrase(self.words["knob_t_value"], style.BODY_SIZE, t=t), bars).arrange(
            DOWN, buff=style.GROUP_BUFF
        )

    def _knob(self) -> SimpleNamespace:
        """The three knobs, pointing down at the it/cat row's weights at each temperature."""
        knobs = VGroup(*(style.text(self.words[key], style.LABEL_SIZE) for key in KNOBS))
        knobs.arrange(RIGHT, buff=style.GROUP_BUFF)
        panels = [self._knob_panel(k) for k in self.temperatures]
        group = VGroup(knobs, panels[0]).arrange(DOWN, buff=style.WIDE_BUFF)
        for panel in panels[1:]:
            group.add(panel.move_to(panels[0]))  # in the group: placed with it, shown in turn
        arrows = VGroup(
            *(
                Arrow(k.get_bottom(), panels[0].get_top(), buff=0.1, color=style.MUTED)
                for k in knobs
            )
        )
        group.add(arrows)
        return SimpleNamespace(knobs=knobs, panels=panels, arrows=arrows, group=group)
