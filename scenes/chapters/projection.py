"""Pitfall 1 (seed 000): why project? Without W_Q and W_K every word looks at itself.

Render alone with ``manim -ql scenes/chapters/projection.py WhyProject``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Angle,
    AnimationGroup,
    Arrow,
    Circumscribe,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowArrow,
    Line,
    MathTex,
    NumberLine,
    Rectangle,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformMatchingTex,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.devices import DotArrows
from scenes.kit.diagrams import QUERY_UNIT, OfficeRoom
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import phrase

SRC = "pitfalls.projection"
DRAWN_LENGTH = 1.8  # a word's vector, drawn with itself and with another
BEATING_LENGTH, BEATING_COS = 1.2, 0.95  # the other vector that would beat x's own score
BIN = 0.02  # histogram bin width (share of attention)
CELL = 0.42  # three maps side by side


class WhyProject(LectureScene):
    """One draw's two maps side by side, then the self-share of all the draws."""

    scene_key = "projection"
    reads = ("pitfalls.projection", "office")
    tables = ("office",)  # the office's people and days, brought back in their own words

    def construct(self) -> None:
        self.p = self.data.projection
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        question = self._question()
        plain, projected = question
        self.say(
            "intro",
            FadeIn(plain),
            beats={"matrix": [TransformMatchingTex(plain.copy(), projected), FadeOut(plain)]},
        )
        self.question = projected
        self._maps()
        self._draws()
        self._office()

    def _office(self) -> None:
        """Query and Key are two things, in the office of the analogy brought back: the
        engineer asks the accountant's question (his Query) but stands at his own Key; what
        the accountant is found by (his Key) is not what he gives (his Value)."""
        o = self.data.office
        office_words = self.shared("office")
        wants = style.text(self.words["looks_for"], style.BODY_SIZE, style.QUERY)
        is_ = style.text(self.words["is"], style.BODY_SIZE, style.KEY)
        line = VGroup(wants, style.text("≠", style.BODY_SIZE), is_).arrange(
            RIGHT, buff=style.ITEM_BUFF
        )
        learned = MathTex(r"W_Q \ne W_K", font_size=48, color=style.HIGHLIGHT)
        header = VGroup(line, learned).arrange(RIGHT, buff=style.WIDE_BUFF)
        room = OfficeRoom(
            [office_words[p] for p in o.people], o.keys, o.values, office_words["days"]
        )
        tags = VGroup(
            self._tag(self.words["query_tag"], style.QUERY),
            self._tag(self.words["key_tag"], style.KEY),
            style.text(self.words["value_label"], style.BODY_SIZE, style.VALUE),
            style.text(self.words["search_key"], style.BODY_SIZE, style.KEY),
            style.text(self.words["search_value"], style.BODY_SIZE, style.VALUE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        style.place(
            VGroup(header, VGroup(room, tags).arrange(RIGHT, buff=style.WIDE_BUFF)).arrange(
                DOWN, buff=style.GROUP_BUFF
            )
        )
        # the arrows once the room is in place, at its scale
        asker, asked = o.people.index("engineer"), top_index(o.grow[-1].weights)
        he, chen = room.people[asker], room.people[asked]
        at, centre = he[0].get_center(), room.room.get_center()
        # the office chapter's Query, from the room's centre towards the accountant; the
        # asker's own Key from the same centre to where he stands: two vectors of one person
        query = Arrow(
            centre,
            centre + room.offset(o.grow[-1].query, QUERY_UNIT),
            buff=0,
            color=style.QUERY,
            stroke_width=6,
        )
        key = Arrow(centre, at, buff=0, color=style.KEY, stroke_width=6)
        links = VGroup(
            *(
                DashedLine(a.get_left(), b, color=c, stroke_width=2)
                for a, b, c in (
                    (tags[0], query.get_end(), style.QUERY),
                    (tags[1], he[0].get_center(), style.KEY),
                )
            )
        )
        self.say(
            "two_things",
            FadeIn(line, lag_ratio=0.3),
            FadeIn(room),
            beats={
                "train": [outline(line[1])],
                "high": [Write(learned)],
            },
        )
        self.say(
            "front_end",
            outline(he[1]),
            GrowArrow(query),
            FadeIn(tags[0], shift=LEFT * style.ITEM_BUFF),
            Create(links[0]),
            beats={
                "key": [
                    GrowArrow(key),
                    FadeIn(tags[1], shift=LEFT * style.ITEM_BUFF),
                    Create(links[1]),
                ],
                "differ": [
                    Create(
                        Angle(
                            Line(centre, query.get_end()),
                            Line(centre, at),
                            radius=0.5,
                            color=style.HIGHLIGHT,
                        )
                    ),
                    outline(line[1]),
                ],
            },
        )
        self.say(
            "value_too",
            Circumscribe(chen[2], color=style.VALUE),
            FadeIn(tags[2], shift=LEFT * style.ITEM_BUFF),
            beats={
                "title": [
                    Create(
                        SurroundingRectangle(
                            VGroup(chen[0], chen[1]), color=style.KEY, buff=style.HUG_BUFF
                        )
                    ),
                    FadeIn(tags[3], shift=LEFT * style.ITEM_BUFF),
                ],
                "body": [
                    Create(SurroundingRectangle(chen[2], color=style.VALUE, buff=style.HUG_BUFF)),
                    FadeIn(tags[4], shift=LEFT * style.ITEM_BUFF),
                ],
            },
        )

    def _tag(self, words: str, colour) -> VGroup:
        """A person's words in a speech tag of their role's colour."""
        text = style.text(words, style.BODY_SIZE, colour)
        return VGroup(SurroundingRectangle(text, color=colour, buff=style.ITEM_BUFF), text)

    def _question(self) -> VGroup:
        """x_i · x_j ? at the size of a title, and what the lecture does instead: each side
        through its own matrix first (W_Q for the one that looks, W_K for the one looked at)."""
        plain = MathTex("x_i", r"\cdot", "x_j", r"\;?", font_size=96)
        projected = MathTex("x_i", "W_Q", r"\cdot", "x_j", "W_K", r"\;?", font_size=96)
        projected[1].set_color(style.QUERY)
        projected[4].set_color(style.KEY)
        style.place(plain)
        style.place(projected)
        return VGroup(plain, projected)

    def _map(self, kind: str, colour) -> VGroup:
        weights = getattr(self.p.example, kind)
        grid = AttentionGrid(weights, f"{SRC}.example.{kind}", cell_size=CELL, show_numbers=False)
        name = style.text(self.words[kind], style.LABEL_SIZE, colour)
        formula = MathTex(self.words[f"{kind}_tex"], font_size=30, color=colour)
        head = VGroup(name, formula).arrange(DOWN, buff=style.ITEM_BUFF)
        return VGroup(head.next_to(grid, UP, buff=style.ITEM_BUFF), grid)

    def _maps(self) -> None:
        maps = VGroup(
            self._map("plain", style.WITHOUT),
            self._map("shared", style.WITHOUT),
            self._map("projected", style.WITH),
        ).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=DOWN)
        plain, shared, projected = style.place(maps)
        diagonal = self._diagonal(plain[1])
        self_dot = MathTex(r"x \cdot x = |x|^2", font_size=44)
        other_dot = MathTex(r"x \cdot y = |x|\,|y|\cos\theta", font_size=44)
        self_size = self.number(f"{SRC}.self_dot_mean", 0)
        cross_size = self.number(f"{SRC}.cross_dot_std", 0)
        self_dot = VGroup(self_dot, phrase(self.words["self_dot_line"], d=self_size))
        other_dot = VGroup(other_dot, phrase(self.words["cross_dot_line"], d=cross_size))
        for beat in (self_dot, other_dot):
            beat.arrange(RIGHT, buff=style.ITEM_BUFF)
        # x with itself and with another word, drawn at the measured sizes: |x|² ≈ the mean
        # self dot, and cos θ one spread of the cross dot over it (a typical other word)
        length = math.sqrt(self.p.self_dot_mean)
        cos = self.p.cross_dot_std / self.p.self_dot_mean
        x = [length, 0.0]
        y = [length * cos, length * math.sqrt(1 - cos * cos)]
        unit = DRAWN_LENGTH / length
        # an illustration, not a measurement: a y longer than x and nearly along it, whose
        # shadow on x passes x's own length (|y| cos θ > |x|), so x · y > x · x
        beating = [length * BEATING_LENGTH * BEATING_COS, 0.0]
        beating[1] = length * BEATING_LENGTH * math.sqrt(1 - BEATING_COS**2)
        drawn = [DotArrows(x, x, "x", "x", style.FOREGROUND, style.FOREGROUND, unit)]
        drawn.append(DotArrows(x, y, "x", "y", style.FOREGROUND, style.MUTED, unit))
        self_dot = VGroup(drawn[0], self_dot).arrange(RIGHT, buff=style.GROUP_BUFF)
        other_dot = VGroup(drawn[1], *other_dot).arrange(RIGHT, buff=style.GROUP_BUFF)
        beats = VGroup(self_dot, other_dot).arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT)
        beats.next_to(plain, RIGHT, buff=style.WIDE_BUFF)
        longer = MathTex(r"|y|\cos\theta > |x| \;\Rightarrow\; x \cdot y > x \cdot x", font_size=40)
        longer.next_to(beats, DOWN, buff=style.GROUP_BUFF).align_to(beats, LEFT)
        self.say(
            "setup",
            FadeOut(self.question),
            FadeIn(plain),
            n=self.p.positions,
            width=self.p.width,
        )
        self.say("diagonal", FadeIn(diagonal, lag_ratio=0.2))
        self.say(
            "why",
            outline(diagonal),
            beats={
                "self": [FadeIn(drawn[0]), Write(self_dot[1])],
                "other": [
                    Succession(
                        AnimationGroup(*(GrowArrow(a) for a in (drawn[1].a, drawn[1].b))),
                        AnimationGroup(FadeIn(drawn[1].names), Create(drawn[1].angle_group)),
                        Create(drawn[1].get_shadow()),
                    ),
                    Write(other_dot[1]),
                ],
                "spread": [FadeIn(other_dot[2]), outline(drawn[1].shadow)],
            },
            width=self.p.width,
            self_dot=self_size,
            cross_dot=cross_size,
        )
        self.say(
            "not_always",
            Write(longer),
            Transform(drawn[1], self._drawn_as(drawn[1], x, beating, unit)),  # y wins
            beats={
                "rare": [
                    Transform(drawn[1], self._drawn_as(drawn[1], x, y, unit)),  # typical again
                    outline(other_dot[1]),
                ]
            },
            width=self.p.width,
        )
        shared_diagonal = self._diagonal(shared[1])  # the line is about this map's now
        n, weights = self.p.positions, self.p.example.shared
        off_diagonal = VGroup(
            *(shared[1].get_cell(i, j) for i in range(n) for j in range(n) if i != j)
        )
        # The other word that comes nearest to beating a word's own score, in this draw.
        i, j = max(
            ((i, j) for i in range(n) for j in range(n) if i != j),
            key=lambda c: weights[c[0]][c[1]],
        )
        nearest = SurroundingRectangle(
            shared[1].get_cell(i, j), buff=0, color=style.HIGHLIGHT, stroke_width=4
        )
        self.say(
            "shared_say",
            FadeOut(VGroup(beats, longer)),
            FadeIn(shared),
            beats={
                "diag": [FadeOut(diagonal), FadeIn(shared_diagonal, lag_ratio=0.2)],
                "own": [outline(shared_diagonal)],
                "others": [
                    FadeOut(shared_diagonal),
                    outline(off_diagonal),
                ],
                "longer": [Create(nearest)],
            },
        )
        self.say("projected_say", FadeIn(projected), FadeOut(nearest))
        self.play(FadeOut(maps))

    @staticmethod
    def _drawn_as(drawn: DotArrows, x: list[float], y: list[float], unit: float) -> DotArrows:
        """x and another y drawn where ``drawn`` is (its arrows' common tail): a target for
        ``drawn`` to turn into."""
        target = DotArrows(x, y, "x", "y", style.FOREGROUND, style.MUTED, unit)
        return target.shift(drawn.a.get_start() - target.a.get_start())

    def _diagonal(self, grid: AttentionGrid) -> VGroup:
        """A frame on each cell of a map's diagonal: each word with itself."""
        frames = (
            SurroundingRectangle(grid.get_cell(i, i), buff=0, stroke_width=2)
            for i in range(self.p.positions)
        )
        return VGroup(*frames).set_color(style.HIGHLIGHT)

    def _histogram(self, kind: str, colour, line: NumberLine) -> VGroup:
        values = getattr(self.p, kind).values
        counts = [0] * round(1 / BIN)
        for v in values:
            counts[min(int(v / BIN), len(counts) - 1)] += 1
        tallest = max(counts)
        bars = VGroup()
        for b, count in enumerate(counts):
            if count:
                bar = Rectangle(width=line.get_unit_size() * BIN, height=1.4 * count / tallest)
                bar.set_stroke(width=0).set_fill(colour, opacity=0.9)
                bars.add(bar.move_to(line.n2p((b + 0.5) * BIN), DOWN))
        return bars

    def _draws(self) -> None:
        p = self.p
        rows = VGroup()
        for kind, colour in (("plain", style.WITHOUT), ("projected", style.WITH)):
            line = NumberLine(x_range=[0, 1, 0.25], length=9, color=style.MUTED)
            ticks = VGroup(
                *(
                    style.tick_label(f"{t:g}").next_to(line.n2p(t), DOWN, buff=style.ITEM_BUFF)
                    for t in (0, 0.25, 0.5, 0.75, 1)
                )
            )
            line.add(ticks)
            bars = self._histogram(kind, colour, line)
            name = style.text(self.words[kind], style.LABEL_SIZE, colour)
            rows.add(VGroup(line, bars, name.next_to(line, LEFT, buff=style.GROUP_BUFF)))
        rows.arrange(DOWN, buff=style.SECTION_BUFF * 1.5)
        uniform = rows[1][0].n2p(p.uniform_share)
        mark = Line(uniform + UP * 1.6, uniform + DOWN * 0.1, color=style.FOREGROUND)
        mark.set_stroke(width=2)
        uniform_share = self.number(f"{SRC}.uniform_share", 3)
        even = phrase(self.words["even_line"], style.SMALL_SIZE, w=uniform_share)
        even.next_to(mark, UP, buff=style.TIGHT_BUFF)
        lowest = self.number(f"{SRC}.plain.min", 3)
        plain_min = phrase(self.words["min_line"], style.SMALL_SIZE, style.WITHOUT, v=lowest)
        plain_min.next_to(rows[0][1], UP, buff=style.ITEM_BUFF).align_to(rows[0][0], RIGHT)
        spread = {key: self.number(f"{SRC}.projected.{key}", 3) for key in ("min", "max", "mean")}
        proj = phrase(
            self.words["range_line"],
            style.SMALL_SIZE,
            style.WITH,
            lo=spread["min"],
            hi=spread["max"],
            mean=spread["mean"],
        )
        proj.next_to(rows[1][0], DOWN, buff=style.SECTION_BUFF)
        style.place(VGroup(rows, mark, even, plain_min, proj))
        self.say(
            "draws",
            FadeIn(rows[0][0]),
            beats={"never": [FadeIn(rows[0][1:]), FadeIn(plain_min)]},
            draws=p.draws,
            min=lowest,
        )
        self.say(
            "draws_projected",
            FadeIn(rows[1]),
            FadeIn(proj),
            lo=spread["min"],
            hi=spread["max"],
            mean=spread["mean"],
        )
        self.say(
            "even",
            Create(mark),
            FadeIn(even),
            beats={"wobble": [outline(rows[1][1])]},
            w=uniform_share,
            n=p.positions,
        )
        self.clear_below_title(self.title)
