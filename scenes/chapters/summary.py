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
    Cross,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStartMap,
    MathTex,
    Mobject,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ordinal, ShownNumber, phrase
from scenes.kit.vectors import WeightBars

IT = "tokens.it_cat"
PITFALL_CELL = 0.3  # a cell (and a bar) of the pitfalls' small pictures
POINTS = ("idea", "roles", "steps", "learned", "pitfalls", "knob", "map")
KNOBS = ("knob_arrow", "knob_t", "knob_sqrt_d")


class Summary(LectureScene):
    """Seven points listed one by one down the left; beside each, a small version of the
    picture it recalls, in the lecture's order: the query word's arrows, its Q, K and V,
    the formula, the learned map, the three pitfalls, the knob turned across T; then the
    list gives way to the map, a map of flow, not a reason.

    Variants override :attr:`temperatures` (indices into the data's temperature maps, in the
    order the knob turns) and :attr:`example_name` (the learned map recalled).
    """

    scene_key = "summary"
    reads = (
        "tokens.it_cat",
        "tokens.eat_apple",
        "examples.{example_name}",
        "pitfalls.projection",
        "pitfalls.sqrt_d",
    )
    tables = ("caveat",)  # the caveat recalled in its own words
    temperatures = (0, 2, 4, 5)
    example_name = "mixed"

    def construct(self) -> None:
        self.title = self.make_title()
        points = VGroup(
            *(style.text(self.words[f"point_{p}"], style.LABEL_SIZE) for p in POINTS)
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ROW_BUFF)
        frames = VGroup(
            *(SurroundingRectangle(p, color=style.HIGHLIGHT, buff=style.HUG_BUFF) for p in points)
        )
        listed = style.place(VGroup(frames, points), aligned=LEFT)
        self.stage = (listed.get_right()[0] + style.WIDE_BUFF, *style.content_area()[1:])
        pictures = {
            "idea": self._idea(),
            "roles": self._roles(),
            "steps": self._formula(),
            "learned": self._learned(),
            "pitfalls": self._pitfalls(),
            "knob": self._knob(),
            "map": self._map_use(),
        }
        shown = None
        self.add(self.title)  # the title at once: no frame is only a title being written
        for k, key in enumerate(POINTS):
            focus = [FadeIn(points[k], shift=RIGHT * 0.2)]
            focus.append(
                Create(frames[0]) if k == 0 else ReplacementTransform(frames[k - 1], frames[k])
            )
            picture, show, beats = pictures[key]
            away = [FadeOut(shown)] if shown is not None else []
            if key == "map":  # the list gives way to the last picture
                focus = [FadeOut(points[:k]), FadeOut(frames[k - 1])]
            self.say(key, *away, *focus, then=[show] if show else (), beats=beats)
            shown = picture
            if key == "knob":
                knob = self.knob
                # A large scale (the first panel, peaked) is on screen; the knob turns down,
                # panel by panel, when the words reach the small scale.
                # One panel gives way to the next: never two sets of digits at once.
                turns = Succession(
                    *(step for a, b in pairwise(knob.panels) for step in (FadeOut(a), FadeIn(b)))
                )
                self.say(
                    "knob_turn",
                    outline(knob.panels[0]),
                    beats={"small": [turns]},
                    run_time=3,
                )
                shown = VGroup(knob.knobs, knob.arrows, knob.panels[-1])

    def _on_stage(self, picture: Mobject) -> Mobject:
        """``picture`` centred in the stage beside the list, scaled down if it does not fit."""
        left, bottom, right, top = self.stage
        picture.scale(min(1.0, (right - left) / picture.width, (top - bottom) / picture.height))
        return picture.move_to([(left + right) / 2, (bottom + top) / 2, 0])

    def _idea(self) -> tuple[Mobject, list, dict]:
        """The short sentence, its query word's arrows growing to each word as it decides."""
        words, arrows = self.apple_choice()
        picture = self._on_stage(VGroup(arrows, words))
        grow = [*(Create(a) for a in arrows.arrows), FadeIn(arrows.numbers)]
        return picture, [FadeIn(words)], {"choose": grow}

    def _roles(self) -> tuple[Mobject, list, dict]:
        """The query word with its three vectors, each in its role's colour and named."""
        word = style.text(self.sentence_words["asker"], style.TITLE_SIZE)
        roles = VGroup()
        for symbol, colour, key in (
            ("q", style.QUERY, "role_q"),
            ("k", style.KEY, "role_k"),
            ("v", style.VALUE, "role_v"),
        ):
            vector = MathTex(symbol, color=colour, font_size=style.SYMBOL_SIZE)
            said = style.text(self.words[key], style.LABEL_SIZE, colour)
            roles.add(VGroup(vector, said).arrange(RIGHT, buff=style.ITEM_BUFF))
        roles.arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        roles.next_to(word, RIGHT, buff=style.WIDE_BUFF * 1.5)
        arrows = VGroup(
            *(
                Arrow(word.get_right(), r[0].get_left(), buff=style.ITEM_BUFF, color=style.MUTED)
                for r in roles
            )
        )
        picture = self._on_stage(VGroup(word, arrows, roles))
        beats = {
            name: [GrowArrow(arrow), FadeIn(role, shift=RIGHT * 0.2)]
            for name, arrow, role in zip(("q", "k", "v"), arrows, roles, strict=True)
        }
        return picture, [FadeIn(word)], beats

    def _learned(self) -> tuple[Mobject, list, dict]:
        """The colour task's learned map, row by row, then its same-colour blocks framed."""
        ex = self.data.example(self.example_name)
        grid = self.colour_map(
            ex.colours,
            ex.attention,
            f"examples.{self.example_name}.attention",
            style.CELL_SIZE,
            header=style.MARKER_SIZE,  # letters that stay legible with the map made small
        )
        blocks = grid.block_frames(ex.colours)
        picture = self._on_stage(VGroup(grid, blocks))
        headers = [FadeIn(VGroup(grid.row_headers, grid.col_headers))]
        cells = LaggedStartMap(FadeIn, VGroup(*(grid.get_row(i) for i in range(grid.n_rows))))
        return picture, headers, {"own": [cells], "equal": [Create(blocks)]}

    def _pitfalls(self) -> tuple[Mobject, list, dict]:
        """Each pitfall's picture, small: the map without projections (a bright diagonal),
        the largest d's weights without the division (one bar takes almost all), and
        positions added to the input."""
        plain = AttentionGrid(
            self.data.projection.example.plain,
            "pitfalls.projection.example.plain",
            cell_size=PITFALL_CELL,
            show_numbers=False,
        )
        widest = self.data.sqrt_d.dims[-1]
        bars = WeightBars(
            [
                ShownNumber(j + 1, 0, Ordinal(), color=style.MUTED)
                for j in range(len(widest.example_unscaled))
            ],
            widest.example_unscaled,
            f"pitfalls.sqrt_d.dims[{len(self.data.sqrt_d.dims) - 1}].example_unscaled",
            length=2.0,
            bar_height=PITFALL_CELL,
        )
        add = MathTex(r"X + PE", font_size=style.SYMBOL_SIZE)
        maps = VGroup(plain, bars).arrange(RIGHT, buff=style.WIDE_BUFF)
        three = VGroup(maps, add).arrange(DOWN, buff=style.GROUP_BUFF)
        picture = self._on_stage(three)
        return picture, [FadeIn(plain)], {"saturate": [FadeIn(bars)], "order": [Write(add)]}

    def _map_use(self) -> tuple[Mobject, list, dict]:
        """The learned map again: a map of how information flowed, the model's reason crossed."""
        ex = self.data.example(self.example_name)
        grid = self.colour_map(
            ex.colours,
            ex.attention,
            f"examples.{self.example_name}.attention",
            style.CELL_SIZE,
            header=style.MARKER_SIZE,  # letters that stay legible with the map made small
        )
        words = self.shared("caveat")
        flow = style.text(words["flow_label"], style.BODY_SIZE)
        reason = style.text(words["reason_label"], style.BODY_SIZE, style.MUTED)
        side = VGroup(flow, reason).arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
        # The last point: the list has been read, and the map takes the whole frame.
        picture = style.place(VGroup(grid, side).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        cross = Cross(reason, stroke_color=style.HIGHLIGHT, stroke_width=5)
        return picture, [FadeIn(grid), FadeIn(flow)], {"not": [FadeIn(reason), Create(cross)]}

    def _formula(self) -> tuple[Mobject, list, dict]:
        """The three lines of attention, each symbol in the colour of its role, one a step."""
        q, k, v = style.QUERY, style.KEY, style.VALUE
        lines = VGroup(
            MathTex(r"\mathrm{score}_{ij} =", "q_i", r"\cdot", "k_j", r"/ \sqrt{d}", font_size=40),
            MathTex(r"w_{ij} = \mathrm{softmax}_j(\mathrm{score}_{ij})", font_size=40),
            MathTex(r"\mathrm{out}_i = \sum_j w_{ij}", "v_j", font_size=40),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        lines[0][1].set_color(q)
        lines[0][3].set_color(k)
        lines[2][1].set_color(v)
        picture = self._on_stage(lines)
        return picture, [Write(lines[0])], {"soft": [Write(lines[1])], "sum": [Write(lines[2])]}

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

    def _knob(self) -> tuple[Mobject, list, dict]:
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
        self.knob = SimpleNamespace(knobs=knobs, panels=panels, arrows=arrows)
        self._on_stage(group)
        show = [FadeIn(knobs, lag_ratio=0.3), *map(GrowArrow, arrows)]
        return group, show, {"same": [FadeIn(panels[0])]}
