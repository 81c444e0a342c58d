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
    Brace,
    Circumscribe,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromCenter,
    Line,
    MathTex,
    NumberLine,
    Rectangle,
    ReplacementTransform,
    Restore,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
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
from scenes.kit.vectors import NumberVector

SRC = "pitfalls.projection"
DRAWN_LENGTH = 1.8  # a word's vector, drawn with itself and with another
BEATING_LENGTH, BEATING_COS = 1.2, 0.95  # the other vector that would beat x's own score
INTRO_ARROWS = 3.0  # the longer of the intro's q and k
INTRO_TEX = 60  # the intro's question
INTRO_GROW = 1.3  # the intro's picture may be enlarged this much to fill the frame
APPLE = "tokens.eat_apple"
BIN = 0.02  # histogram bin width (share of attention)
CELL = 0.42  # three maps side by side
LINE_LENGTH = 8.5  # a histogram's number line, the share from 0 to 1
BAR_HEIGHT = 1.2  # a histogram's tallest bar
SMALL_MAP = 1.5  # a first draw's map, shrunk beside its histogram
DECK = 3  # outlines stacked behind it: the other draws
HISTOGRAM_GROW = 1.3  # the histograms may be enlarged this much to fill the frame


class WhyProject(LectureScene):
    """One draw's two maps side by side, then the self-share of all the draws."""

    scene_key = "projection"
    reads = ("pitfalls.projection", "office", "tokens.eat_apple")
    tables = ("office",)  # the office's people and days, brought back in their own words

    def construct(self) -> None:
        self.p = self.data.projection
        self.title = self.make_title()
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.question = self._intro()
        self._draws(self._maps())
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
                "two": [Write(learned)],
                "train": [outline(learned)],
                # the one his question should find, given the high score
                "high": [outline(VGroup(chen[0], chen[1]))],
            },
        )
        others = VGroup(*(p for k, p in enumerate(room.people) if k != asker))
        others.save_state()
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
                    # one person, two vectors: the others dim
                    others.animate.set_opacity(style.DIMMED),
                ],
            },
        )
        self.say(
            "value_too",
            Restore(others),
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

    def _intro(self) -> VGroup:
        """The question on two words of the walkthrough (蘋果 asking, 吃 asked): their x's
        compared directly, as numbers and as arrows (x_i · x_j ?); then what the lecture does
        instead: each through its own matrix first, x W_Q = q and x W_K = k, whose arrows
        (the scoring chapter's q and k) are compared. Returns what stays on screen."""
        ex = self.data.eat_apple
        i, j = ex.query_index, ex.target
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.apple_words()[: ex.short]))
        words.arrange(RIGHT, buff=style.WIDE_BUFF)
        rows = VGroup()
        for k, role, matrix, colour in ((i, "q", "W_Q", style.QUERY), (j, "k", "W_K", style.KEY)):
            x = NumberVector(ex.x[k], f"{APPLE}.x[{k}]", self.apple_label("x", k), decimals=1)
            times = MathTex(r"\times", matrix, "=", font_size=40)
            times[1].set_color(colour)
            out = getattr(ex, role)[k]
            y = NumberVector(out, f"{APPLE}.{role}[{k}]", self.apple_label(role, k), colour, 1)
            rows.add(VGroup(x, times, y).arrange(RIGHT, buff=style.ITEM_BUFF))
        for row in rows:  # the x's one above the other, their products to the right
            row[1:].next_to(row[0], RIGHT, buff=style.ITEM_BUFF)
        rows.arrange(DOWN, buff=style.SECTION_BUFF, aligned_edge=LEFT)
        plain = MathTex("x_i", r"\cdot", "x_j", r"\;?", font_size=INTRO_TEX)
        projected = MathTex("x_i", "W_Q", r"\cdot", "x_j", "W_K", r"\;?", font_size=INTRO_TEX)
        projected[1].set_color(style.QUERY)
        projected[4].set_color(style.KEY)
        # one unit for both pairs: the products' arrows are longer than the x's they come from
        unit = INTRO_ARROWS / max(math.dist(v, [0.0] * len(v)) for v in (ex.q[i], ex.k[j]))
        arrows = DotArrows(ex.x[i], ex.x[j], "x_i", "x_j", style.FOREGROUND, style.MUTED, unit)
        turned = DotArrows(ex.q[i], ex.k[j], "q", "k", style.QUERY, style.KEY, unit)
        arrows.shift(turned.a.get_start() - arrows.a.get_start())
        left = VGroup(words, rows).arrange(DOWN, buff=style.SECTION_BUFF * 1.5)
        right = VGroup(projected, VGroup(turned, arrows)).arrange(DOWN, buff=style.SECTION_BUFF)
        style.place(VGroup(left, right).arrange(RIGHT, buff=style.WIDE_BUFF), grow=INTRO_GROW)
        plain.scale(projected[0].height / plain[0].height).move_to(projected)
        back = arrows.copy()  # the x's arrows again, when the projections are switched off
        # the x's grow out of their words; the products travel out of them
        xs = [rows[0][0], rows[1][0]]
        self.say(
            "intro",
            FadeIn(words),
            beats={
                "pair": [
                    outline(words[i], words[j]),
                    *(TransformFromCopy(words[k], x) for k, x in zip((i, j), xs, strict=True)),
                ],
                "dot": [
                    Succession(
                        AnimationGroup(*(GrowArrow(a) for a in (arrows.a, arrows.b))),
                        AnimationGroup(FadeIn(arrows.names), Create(arrows.angle_group)),
                        AnimationGroup(*(Create(s) for s in arrows.get_shadow())),
                    ),
                    Write(plain),
                ],
                "matrix": [
                    TransformMatchingTex(plain, projected),
                    *(FadeIn(row[1]) for row in rows),
                    *(TransformFromCopy(row[0], row[2], path_arc=-0.6) for row in rows),
                    ReplacementTransform(arrows, turned),
                ],
            },
        )
        return VGroup(words, rows, projected, turned, back)

    def _map(self, kind: str, colour) -> VGroup:
        weights = getattr(self.p.example, kind)
        grid = AttentionGrid(weights, f"{SRC}.example.{kind}", cell_size=CELL, show_numbers=False)
        name = style.text(self.words[kind], style.LABEL_SIZE, colour)
        formula = MathTex(self.words[f"{kind}_tex"], font_size=30, color=colour)
        head = VGroup(name, formula).arrange(DOWN, buff=style.ITEM_BUFF)
        return VGroup(head.next_to(grid, UP, buff=style.ITEM_BUFF), grid)

    def _maps(self) -> VGroup:
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
        words, rows, asked, turned, back = self.question
        off = MathTex("x_i", r"\cdot", "x_j", r"\;?", font_size=INTRO_TEX)
        off.scale(asked[0].height / off[0].height).move_to(asked)
        self.say(
            "setup",
            # the projections switched off: W_Q and W_K leave the question, q and k turn
            # back into the x's they were made from
            FadeOut(VGroup(*(row[1:] for row in rows))),
            TransformMatchingTex(asked, off),
            ReplacementTransform(turned, back),
            beats={
                # the map of the random vectors' dot products, filled cell by cell
                "random": [
                    FadeOut(VGroup(words, *(row[0] for row in rows), back)),
                    ReplacementTransform(off, plain[0]),
                    FadeIn(plain[1], lag_ratio=0.05),
                ]
            },
            n=self.p.positions,
            width=self.p.width,
        )
        # one word's row: its own cell lit, the rest dark
        row = SurroundingRectangle(
            plain[1].get_row(0), color=style.HIGHLIGHT, buff=style.TIGHT_BUFF
        )
        self.say(
            "diagonal",
            FadeIn(diagonal, lag_ratio=0.2),
            beats={"rest": [Create(row)]},
        )
        self.say(
            "why",
            FadeOut(row),
            outline(diagonal),
            beats={
                "self": [
                    AnimationGroup(*(GrowArrow(a) for a in (drawn[0].a, drawn[0].b))),
                    FadeIn(drawn[0].names),
                    Write(self_dot[1][0]),
                ],
                "about": [Create(drawn[0].shadow), FadeIn(self_dot[1][1])],
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
            Transform(drawn[1], self._drawn_as(drawn[1], x, beating, unit)),  # y wins
            beats={
                "wins": [Write(longer)],
                "rare": [
                    Transform(drawn[1], self._drawn_as(drawn[1], x, y, unit)),  # typical again
                ],
                "cos": [outline(other_dot[1])],
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
        away = projected[1].get_center() - drawn[1].get_center()  # where x and y make way to
        self.say(
            "shared_say",
            # x and a typical y make way for the new map, into the third it leaves empty
            FadeOut(VGroup(self_dot, other_dot[1:], longer)),
            drawn[1].animate.shift(away),
            FadeIn(shared),
            beats={
                "diag": [FadeOut(diagonal), FadeIn(shared_diagonal, lag_ratio=0.2)],
                "own": [outline(shared_diagonal)],
                "others": [
                    FadeOut(shared_diagonal),
                    outline(off_diagonal),
                ],
                # y grows and turns until its shadow passes x: the cell that comes nearest
                "longer": [
                    Transform(drawn[1], self._drawn_as(drawn[1], x, beating, unit).shift(away)),
                    Create(nearest),
                ],
            },
        )
        self.say("projected_say", FadeOut(drawn[1]), FadeIn(projected), FadeOut(nearest))
        return maps

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
                bar = Rectangle(
                    width=line.get_unit_size() * BIN, height=BAR_HEIGHT * count / tallest
                )
                bar.set_stroke(width=0).set_fill(colour, opacity=0.9)
                bars.add(bar.move_to(line.n2p((b + 0.5) * BIN), DOWN))
        return bars

    def _row(self, kind: str, colour, grid: AttentionGrid) -> VGroup:
        """One kind's histogram of the self share over the draws: its number line, its bars,
        and on its left its map of the first draw (``grid``'s place, shrunk) under its name,
        with the other draws stacked behind it."""
        line = NumberLine(x_range=[0, 1, 0.25], length=LINE_LENGTH, color=style.MUTED)
        ticks = VGroup(
            *(
                style.tick_label(f"{t:g}").next_to(line.n2p(t), DOWN, buff=style.ITEM_BUFF)
                for t in (0, 0.25, 0.5, 0.75, 1)
            )
        )
        line.add(ticks)
        bars = self._histogram(kind, colour, line)
        small = grid.copy().scale_to_fit_height(SMALL_MAP)
        deck = VGroup(
            *(
                Rectangle(width=small.width, height=small.height)
                .set_stroke(style.MUTED, width=2)
                .move_to(small)
                .shift(style.STACK_STEP * k)
                for k in range(DECK, 0, -1)
            )
        ).set_z_index(-1)  # behind the map it stacks under
        name = style.text(self.words[kind], style.LABEL_SIZE, colour)
        slot = VGroup(name, VGroup(deck, small)).arrange(DOWN, buff=style.ITEM_BUFF)
        slot.next_to(line, LEFT, buff=style.WIDE_BUFF).align_to(line, DOWN)
        return VGroup(line, bars, slot)

    def _share_dot(self, row: VGroup, kind: str, colour) -> tuple[VGroup, Dot]:
        """The first draw's diagonal framed on its small map, and the dot on the number line
        where that draw's self share (the diagonal's mean) lies."""
        line, small = row[0], row[2][1][1]
        share = getattr(self.p, kind).values[0]
        return self._diagonal(small), Dot(line.n2p(share), radius=0.09, color=colour)

    def _draws(self, maps: VGroup) -> None:
        """The first draw's maps shrink to the left of their kind's histogram, the other draws
        stacked behind them; each first draw's diagonal, averaged, lands as one dot on its
        line, and the bars of all the draws grow there."""
        p = self.p
        plain_map, shared_map, projected_map = maps
        rows = VGroup(
            self._row("plain", style.WITHOUT, plain_map[1]),
            self._row("projected", style.WITH, projected_map[1]),
        ).arrange(DOWN, buff=style.SECTION_BUFF * 2, aligned_edge=RIGHT)
        count = phrase("× {n}", style.LABEL_SIZE, n=self.number(f"{SRC}.draws", 0))
        count.next_to(rows[0][2][1], RIGHT, buff=style.ITEM_BUFF)
        (line0, bars0, _), (line1, bars1, slot1) = rows
        lowest = self.number(f"{SRC}.plain.min", 3)
        low_tick = Line(UP * 0.25, DOWN * 0.25, color=style.WITHOUT).move_to(line0.n2p(p.plain.min))
        plain_min = phrase(self.words["min_line"], style.SMALL_SIZE, style.WITHOUT, v=lowest)
        plain_min.next_to(bars0, UP, buff=style.ITEM_BUFF).align_to(low_tick, RIGHT)
        spread = {key: self.number(f"{SRC}.projected.{key}", 3) for key in ("min", "max", "mean")}
        lo, hi = (line1.n2p(getattr(p.projected, k)) for k in ("min", "max"))
        lift = UP * (BAR_HEIGHT + style.GROUP_BUFF)
        span = VGroup(
            Line(lo + lift, hi + lift),
            *(Line(e + lift + UP * 0.12, e + lift + DOWN * 0.12) for e in (lo, hi)),
        ).set_stroke(style.WITH, width=3)
        proj = phrase(
            self.words["range_line"],
            style.SMALL_SIZE,
            style.WITH,
            lo=spread["min"],
            hi=spread["max"],
        )
        proj.next_to(span, RIGHT, buff=style.ITEM_BUFF)
        mean_at = line1.n2p(p.projected.mean)
        mean_tick = Line(mean_at + UP * 0.2, mean_at + DOWN * 0.2, color=style.WITH)
        mean_tick.set_stroke(width=5)
        mean = phrase(self.words["mean_line"], style.SMALL_SIZE, style.WITH, mean=spread["mean"])
        mean.next_to(line1, DOWN, buff=style.GROUP_BUFF).match_x(mean_tick)
        uniform = line1.n2p(p.uniform_share)
        mark = Line(uniform + lift + UP * style.GROUP_BUFF, uniform, color=style.FOREGROUND)
        mark.set_stroke(width=2)
        uniform_share = self.number(f"{SRC}.uniform_share", 3)
        even = phrase(self.words["even_line"], style.SMALL_SIZE, w=uniform_share)
        even.next_to(mark, UP, buff=style.TIGHT_BUFF)
        small1 = slot1[1][1]
        brace = Brace(small1, DOWN, buff=style.TIGHT_BUFF)
        positions = self.number(f"{SRC}.positions", 0)
        positions.next_to(brace, DOWN, buff=style.TIGHT_BUFF)
        extras = VGroup(count, plain_min, low_tick, span, proj, mean_tick, mean, mark, even)
        extras.add(brace, positions)
        style.place(VGroup(rows, extras), grow=HISTOGRAM_GROW)
        frames0, dot0 = self._share_dot(rows[0], "plain", style.WITHOUT)
        frames1, dot1 = self._share_dot(rows[1], "projected", style.WITH)
        same = self._diagonal(small1)
        grids = [rows[0][2][1][1], small1]
        self.say(
            "draws",
            FadeOut(VGroup(plain_map[0], projected_map[0], shared_map)),
            *(
                ReplacementTransform(m[1], g)
                for m, g in zip((plain_map, projected_map), grids, strict=True)
            ),
            FadeIn(VGroup(line0, line1, rows[0][2][0], slot1[0])),
            then=[[*(FadeIn(row[2][1][0], lag_ratio=0.3) for row in rows), FadeIn(count)]],
            beats={
                "never": [Succession(Create(frames0), ReplacementTransform(frames0, dot0))],
                # the other draws, stacked behind the map, land on the line as its bars
                "min": [
                    TransformFromCopy(rows[0][2][1][0], bars0),
                    Create(low_tick),
                    FadeIn(plain_min),
                ],
            },
            draws=p.draws,
            min=lowest,
        )
        self.say(
            "draws_projected",
            Succession(Create(frames1), ReplacementTransform(frames1, dot1)),
            then=[[TransformFromCopy(slot1[1][0], bars1), Create(span), FadeIn(proj)]],
            # the bars' copy gathers at their mean
            beats={"mean": [ReplacementTransform(bars1.copy(), mean_tick), FadeIn(mean)]},
            lo=spread["min"],
            hi=spread["max"],
            mean=spread["mean"],
        )
        (name0, (deck0, small0)) = rows[0][2]
        plain_side = VGroup(line0, bars0, name0, small0, dot0, low_tick, plain_min, count)
        self.say(
            "even",
            Create(mark),
            FadeIn(even),
            beats={
                # the projected side alone: its diagonal no brighter than the rest
                "same": [
                    plain_side.animate.set_opacity(style.DIMMED),
                    deck0.animate.set_stroke(opacity=style.DIMMED),  # outlines: no fill
                    Create(same),
                ],
                "wobble": [outline(bars1)],
                "few": [FadeOut(same), GrowFromCenter(brace), FadeIn(positions)],
            },
            w=uniform_share,
            n=positions,
        )
        self.clear_below_title(self.title)
