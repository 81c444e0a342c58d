"""Why we need attention (seed 000): inputs of varying length, and one word with two meanings.

With one fixed vector per word, 蘋果 the company and 蘋果 the fruit get the same vector.
The goal, drawn with the numbers of "我 吃 蘋果": the vector, plus a change its neighbours
make, moves toward the word's meaning in this sentence.
Render alone with ``manim -ql scenes/chapters/why.py WhyAttention``.
"""

from __future__ import annotations

import itertools
import math

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Create,
    Cross,
    CurvedArrow,
    Dot,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    GrowFromCenter,
    LaggedStart,
    Line,
    MathTex,
    ParametricFunction,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene, top_index
from scenes.kit.emphasis import outline
from scenes.kit.maps import fit_column_labels
from scenes.kit.seams import seam_builder
from scenes.kit.sums import TipToTail
from scenes.kit.turns import InTurn
from scenes.kit.vectors import FixedInputNetwork, LookingArrows, NumberVector

EAT = "tokens.eat_apple"
PLANE_SIDE = 4.6  # the length of each axis of the plane


TWO_GROW = 1.4  # a part's picture (two sentences and the network; the sum and its plane) grows
FIXED_SLOTS = 7  # the earlier lectures' network: an input of this many numbers, always
SLOT = 0.5  # side of one input slot
VALUE_SHARE = 0.6  # a number in a slot, drawn as a filled square this share of the slot
ATOMS = 11  # a molecule's atoms, one to a slot: more than the socket takes
WAVES = 9  # the speech clip's oscillations
IDEAS_GROW = 1.3  # the last picture (the sentence and the two ideas): grown by up to this


def _speech(width: float, height: float) -> ParametricFunction:
    """A clip of speech: a waveform ``width`` long whose loudness swells and fades."""
    return ParametricFunction(
        lambda t: (
            t * width,
            height
            / 2
            * math.sin(PI * t)
            * math.sin(2 * PI * WAVES * t)
            * (0.6 + 0.4 * math.sin(7 * t)),
            0,
        ),
        t_range=[0, 1, 0.005],
        color=style.FOREGROUND,
    )


def _molecule(atoms: int, side: float) -> VGroup:
    """A chain of ``atoms`` atoms, one on each slot's centre, zig-zagging across the row."""
    points = [RIGHT * side * k + UP * side * 0.2 * (-1) ** k for k in range(atoms)]
    bonds = VGroup(*(Line(a, b).set_stroke(style.MUTED, 3) for a, b in itertools.pairwise(points)))
    return VGroup(bonds, *(Dot(pt, radius=side * 0.22, color=style.FOREGROUND) for pt in points))


def _under(picture: VGroup, title: VGroup) -> None:
    """Shrink ``picture`` about its bottom edge until its top is a section's buff under
    ``title``."""
    room = title.get_bottom()[1] - style.SECTION_BUFF - picture.get_bottom()[1]
    if picture.height > room:
        picture.scale(room / picture.height, about_edge=DOWN)


def _boxes(n: int, side: float) -> VGroup:
    """A row of ``n`` input slots, side by side."""
    return VGroup(*(Square(side).set_stroke(style.MUTED, 1.5) for _ in range(n))).arrange(
        RIGHT, buff=0
    )


class WhyAttention(LectureScene):
    """Lengths vary; two 蘋果 share one vector; the goal: a vector moved by its context."""

    scene_key = "why"
    needs = ("walkthrough.other_sense",)  # the asking word where it means something else
    reads = ("tokens.eat_apple",)
    tables = ("dead_ends",)  # the earlier network's name; the two ideas the next chapter tries
    word_numbers = (("short", 1, 20), ("long", 1, 200))  # the sentences' lengths, as slots
    ends_on = "two_ideas"

    def construct(self) -> None:
        self.ex = ex = self.data.eat_apple
        i = ex.query_index
        # The plane's axes: what the neighbours add most, and what the word means most.
        self.across = top_index(ex.last_row.outputs[0])
        self.up = top_index(ex.x[i])
        if self.up == self.across:  # one dimension does both: the next largest change
            change = ex.last_row.outputs[0]
            self.across = max((c for c in range(ex.d) if c != self.up), key=change.__getitem__)
        self.title = self.make_title()
        self._lengths()
        self._two_meanings()
        self._goal()

    def _lengths(self) -> None:
        network = FixedInputNetwork(FIXED_SLOTS, self.shared("dead_ends")["network"], SLOT)
        label = style.text(self.words["fixed_input"], style.BODY_SIZE, style.MUTED)
        VGroup(label, network).arrange(DOWN, buff=style.GROUP_BUFF)
        # what the network gives for its input: an arrow out of the box and a number
        out = network.get_feed().copy().next_to(network.get_box(), DOWN, buff=style.TIGHT_BUFF)
        result = Square(SLOT).set_stroke(style.MUTED, 1.5)
        result.add(Square(SLOT * VALUE_SHARE).set_stroke(width=0).set_fill(style.FOREGROUND, 1))
        result.next_to(out, DOWN, buff=style.TIGHT_BUFF)
        style.place(VGroup(label, network, out, result), grow=2.2)
        # at once: no frame is only a title being written; the slots apart, as inputs replace them
        self.add(self.title, network.get_socket(), network.get_feed(), network.get_box())
        self.add(network.get_slots())
        slots = network.get_slots()
        values = VGroup(  # one input: a number in every slot, no more, no fewer
            *(
                Square(slot.width * VALUE_SHARE).set_stroke(width=0).set_fill(style.FOREGROUND, 1)
                for slot in slots
            )
        )
        for value, slot in zip(values, slots, strict=True):
            value.move_to(slot)
        box = network.get_box()
        self.say(
            "intro",
            FadeIn(label),
            beats={
                "fixed": [
                    outline(network.get_socket()),
                    InTurn(  # the slots fill, the whole input goes down into the box, out
                        LaggedStart(*(FadeIn(v, scale=0.4) for v in values), lag_ratio=0.15),
                        LaggedStart(
                            *(
                                FadeOut(v, target_position=box.get_center(), scale=0.3)
                                for v in values
                            ),
                            lag_ratio=0.1,
                        ),
                        outline(box),
                        AnimationGroup(GrowArrow(out), FadeIn(result, shift=DOWN * 0.3)),
                    ),
                ]
            },
        )
        short_n, long_n = int(self.words["short"]), int(self.words["long"])
        side = slots[0].width
        short = _boxes(short_n, side).align_to(slots, LEFT).match_y(slots)
        # the long input, in slots small enough to cross the frame: it runs past the socket
        long = _boxes(long_n, min(side, (style.content_area()[2] - slots.get_left()[0]) / long_n))
        long.align_to(slots, LEFT).match_y(slots)
        speech = _speech(long.width, side).align_to(slots, LEFT).match_y(slots)
        molecule = _molecule(ATOMS, side).align_to(slots, LEFT).match_y(slots)
        molecule.shift(RIGHT * (slots[0].get_center()[0] - molecule[1].get_center()[0]))
        # the next input arrives from the left and waits at the socket's edge
        coming = short.copy().next_to(network.get_socket(), LEFT, buff=style.ITEM_BUFF)
        self.say(
            "lengths",
            FadeOut(label),
            FadeOut(out),
            FadeOut(result),
            FadeIn(coming, shift=RIGHT * style.WIDE_BUFF),
            beats={
                "five": [FadeOut(slots), ReplacementTransform(coming, short)],
                "fifty": [ReplacementTransform(short, long, lag_ratio=0.01)],
                "speech": [FadeOut(long), Create(speech)],
                "atoms": [ReplacementTransform(speech, molecule)],
            },
            short=short_n,
            long=long_n,
        )
        # the network without its slots (the inputs took their place), and the last input
        parts = (network.get_socket(), network.get_feed(), network.get_box(), molecule)
        self.remove(*parts)
        self.slots = VGroup(*parts)  # they stay until the two sentences take their place
        self.add(self.slots)

    def _sentence(self, words: list[str], meaning: str) -> VGroup:
        row = VGroup(*(style.text(w, style.TITLE_SIZE) for w in words))
        row.arrange(RIGHT, buff=style.GROUP_BUFF)
        return VGroup(row, style.text(meaning, style.LABEL_SIZE, style.MUTED))

    def _vector(self, row: list[float], source: str, label: str, decimals: int = 1) -> NumberVector:
        """A vector of the walkthrough: its hand-picked inputs at 1 decimal, what attention
        computes from them at 2 (as the later chapters say them)."""
        return NumberVector(row, source, label, style.FOREGROUND, decimals, style.BODY_SIZE)

    def _two_meanings(self) -> None:
        i, sense = self.ex.query_index, self.ex.other_sense
        there, here = self.names_of(sense.means, "means")
        other = sense.gloss if self.shows_gloss() and sense.gloss else sense.tokens
        company = self._sentence(other, there)
        fruit = self._sentence(self.apple_words()[: self.ex.short], here)
        apples = [company[0][sense.word], fruit[0][i]]
        vectors = VGroup(*(self._vector(self.ex.x[i], f"{EAT}.x[{i}]", "") for _ in range(2)))
        rows = VGroup(
            *(
                VGroup(s[0], v).arrange(RIGHT, buff=style.WIDE_BUFF)
                for s, v in zip((company, fruit), vectors, strict=True)
            )
        )
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.WIDE_BUFF * 2)  # the frame's height
        right = max(v.get_left()[0] for v in vectors)
        for v in vectors:  # one column: the same vector, one above the other
            v.shift(RIGHT * (right - v.get_left()[0]))
        for s in (company, fruit):
            s[1].next_to(s[0], DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        # the earlier lectures' network again, taking the one vector in a socket of d slots
        one = vectors[0].copy().move_to(vectors)  # the two, one on the other
        network = FixedInputNetwork(
            self.ex.d, self.shared("dead_ends")["network"], one.width / self.ex.d
        )
        network.shift(one.get_center() - network.get_slots().get_center())  # the vector's place
        # what each sentence asks of it, under its box; then the one answer it can give
        asked = VGroup(
            *(style.text(f"{m} ?", style.LABEL_SIZE, style.MUTED) for m in (there, here))
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        asked.next_to(network.get_box(), DOWN, buff=style.GROUP_BUFF)
        # the one answer, near the size of the words it answers for, where they were asked
        # (what the one vector encodes: the walkthrough's x is this sentence's meaning, so the
        # one answer is its meaning, and the other sentence's copy is the one that is wrong)
        answer = style.text(here, style.BODY_SIZE)
        answer.add(SurroundingRectangle(answer, color=style.RESULT, buff=style.HUG_BUFF))
        answer.move_to(asked).align_to(asked, UP)
        # the one answer, given to each sentence beside the meaning it asked for (hanging
        # down from it, clear of the sentence's words)
        given = VGroup(
            *(
                answer.copy().next_to(s[1], RIGHT, buff=style.GROUP_BUFF).align_to(s[1], UP)
                for s in (company, fruit)
            )
        )
        picture = VGroup(rows, company[1], fruit[1], network, asked, one, answer, given)
        _under(style.place(picture, grow=TWO_GROW), self.title)
        same = style.text(self.words["same"], style.BODY_SIZE)
        same.next_to(one, DOWN, buff=style.ITEM_BUFF)
        wrong = Cross(given[0], stroke_color=style.HIGHLIGHT, stroke_width=6)
        shrunk = self.slots.copy().scale(0.5).fade(1 - style.DIMMED)
        shrunk.next_to(self.title, DOWN, buff=style.SECTION_BUFF).align_to(rows, LEFT)
        self.say(
            "deadly",
            outline(self.slots),
            beats={
                "second": [Transform(self.slots, shrunk)],
                "look": [FadeOut(self.slots), FadeIn(company[0]), FadeIn(fruit[0])],
            },
        )
        frames = VGroup(
            *(SurroundingRectangle(a, color=style.HIGHLIGHT, buff=style.HUG_BUFF) for a in apples)
        )
        self.say(
            "two_meanings",
            *(Create(f) for f in frames),
            FadeIn(company[1]),
            FadeIn(fruit[1]),
            there=there,
            here=here,
        )
        cased = other[sense.word] != self.apple_words()[i]  # "Apple" and "apple"
        self.say(
            "fixed_case" if cased else "fixed",
            *(TransformFromCopy(a, v) for a, v in zip(apples, vectors, strict=True)),
            beats={"same": [ReplacementTransform(vectors, one), FadeIn(same)]},
        )
        self.say(
            "impossible",
            FadeOut(same),
            GrowArrow(network.get_feed()),
            FadeIn(network.get_box(), shift=DOWN * 0.3),
            Create(network.get_socket()),
            beats={
                "two": [
                    TransformFromCopy(company[1], asked[0]),
                    TransformFromCopy(fruit[1], asked[1]),
                ],
                "same": [  # both framed 蘋果 go into the one vector: the same input
                    *(
                        FadeOut(VGroup(a, f).copy(), target_position=one, scale=0.5)
                        for a, f in zip(apples, frames, strict=True)
                    ),
                    outline(one),
                ],
                "out": [
                    InTurn(
                        ReplacementTransform(asked, answer),
                        AnimationGroup(*(TransformFromCopy(answer, g) for g in given)),
                        Create(wrong),
                    )
                ],
            },
        )
        self.fruit = VGroup(fruit[0], frames[1])  # carried up to the goal

    def _goal(self) -> None:
        i, ex = self.ex.query_index, self.ex
        sentence = VGroup(
            *(style.text(w, style.TITLE_SIZE) for w in self.apple_words()[: ex.short])
        )
        sentence.arrange(RIGHT, buff=style.WIDE_BUFF)  # room for a V column under each word
        x = self._vector(ex.x[i], f"{EAT}.x[{i}]", "")
        # The weights, the average and the sum at 3 decimals in this picture: each term is
        # then its weight times its V, and each slot the sum of its terms, as written (at 2,
        # 0.000 + 0.000 + 0.295 would land as 0.29). The narration says them at 2.
        change = self._vector(ex.last_row.outputs[0], f"{EAT}.last_row.outputs[0]", "", 3)
        change.set_color(style.MUTED)
        new = self._vector(ex.residual, f"{EAT}.residual", "", 3)
        dims = fit_column_labels(
            VGroup(
                *(
                    style.text(d, style.LABEL_SIZE, style.MUTED).next_to(x.get_entry(k), UP)
                    for k, d in enumerate(self.dim_names(ex))
                )
            )
        )
        plus, equals = style.text("+", style.TITLE_SIZE), style.text("=", style.TITLE_SIZE)
        change_label = style.text(self.words["change"], style.LABEL_SIZE, style.MUTED)
        column = VGroup(VGroup(dims, x), plus, change, change_label, equals, new).arrange(
            DOWN, buff=style.ITEM_BUFF
        )
        box = SurroundingRectangle(new, color=style.RESULT, buff=style.HUG_BUFF)
        # what each word brings (its V, a column under it), and 蘋果's looks at them
        values = self._columns(ex.v, "v", 1, sentence)
        looks = LookingArrows(
            sentence, i, ex.last_row.weights[0], f"{EAT}.last_row.weights[0]", decimals=3
        )
        # What a real model multiplies the average by first: a d × d matrix, named (no
        # numbers here: this walkthrough adds the average as it is).
        w_o = VGroup(*(_boxes(ex.d, SLOT * 0.6) for _ in range(ex.d))).arrange(DOWN, buff=0)
        w_o.add(
            MathTex("W_O", font_size=style.SYMBOL_SIZE * 0.6, color=style.MUTED).next_to(w_o, RIGHT)
        )
        w_o.next_to(values, DOWN, buff=style.GROUP_BUFF)
        plane, arrows, labels = self._plane(x, change, new)
        style.place(
            VGroup(
                VGroup(looks, sentence, values, w_o),
                VGroup(column, box),
                VGroup(plane, labels, arrows),
            ).arrange(RIGHT, buff=style.GROUP_BUFF),
            grow=TWO_GROW,
        )
        # each V shrunk by its weight, where it stands: the terms of the average
        terms = self._columns(ex.contributions, "contributions", 3, sentence)
        for term, value in zip(terms, values, strict=True):  # at the placed picture's scale
            term.scale(value.height / term.height).align_to(value, UP).match_x(value)
        frame = SurroundingRectangle(sentence[i], color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        # the change to come, still empty: one slot per entry, fed by the neighbours
        blank = _boxes(ex.d, change.height).stretch_to_fit_width(change.width).move_to(change)
        feeds = VGroup(
            *(
                CurvedArrow(
                    sentence[j].get_top(), sentence[i].get_top(), angle=-PI / 2, color=style.MUTED
                ).set_stroke(width=6)
                for j in range(ex.short)
                if j != i
            )
        )
        self.say(
            "goal",
            *(FadeOut(m) for m in self.mobjects if m not in (self.title, *self.fruit)),
            ReplacementTransform(self.fruit[0], sentence),
            ReplacementTransform(self.fruit[1], frame),
            then=[
                [
                    TransformFromCopy(sentence[i], x),
                    FadeIn(dims),
                    Create(plane),
                    FadeIn(labels[:2]),
                    GrowArrow(arrows[0]),
                ]
            ],
            beats={"change": [FadeIn(plus), Create(blank), *(Create(f) for f in feeds)]},
        )
        # the weighted sum on the plane: each word's V, shrunk by its weight, tip to tail
        sums = TipToTail(
            plane,
            ex.v[: ex.short],
            ex.last_row.weights[0],
            f"{EAT}.last_row.weights[0]",
            [self.apple_label("v", j) for j in range(ex.short)],
            (self.across, self.up),
        )
        # the average, from x's tip: the sum's arrow carried there
        shift = plane.c2p(ex.x[i][self.across], ex.x[i][self.up]) - plane.c2p(0, 0)
        # what 吃 gains, along its own axis: from x's entry to x's entry plus the average's
        start = ex.x[i][self.across]
        run = Line(
            plane.c2p(start, 0), plane.c2p(start + ex.last_row.outputs[0][self.across], 0)
        ).set_stroke(style.HIGHLIGHT, 8)
        # where W_O would act: the average goes through it before it is added
        onto = Arrow(change.get_left(), w_o.get_right(), buff=style.ITEM_BUFF, color=style.MUTED)
        self.say(
            "add_change",
            FadeOut(feeds),
            beats={
                "each": [
                    LaggedStart(
                        *(
                            FadeIn(v, target_position=w, scale=0.5)
                            for v, w in zip(values, sentence, strict=True)
                        ),
                        lag_ratio=0.3,
                    ),
                    sums.draw_vectors(),
                ],
                "avg": [
                    InTurn(
                        AnimationGroup(Create(looks.arrows), FadeIn(looks.numbers)),
                        AnimationGroup(
                            *(
                                ReplacementTransform(v, t)
                                for v, t in zip(values, terms, strict=True)
                            ),
                            *(sums.scale_term(j) for j in range(ex.short)),
                        ),
                    )
                ],
                "weights": [
                    sums.lay_tip_to_tail(),
                    ReplacementTransform(blank, VGroup(*change.brackets)),
                    LaggedStart(  # entry by entry: the terms' k-th numbers add up in slot k
                        *(
                            FadeTransform(
                                VGroup(*(t.get_entry(k).copy() for t in terms)),
                                change.get_entry(k),
                            )
                            for k in range(ex.d)
                        ),
                        lag_ratio=0.3,
                    ),
                    FadeIn(change_label),
                ],
                "add": [
                    Transform(sums.arrows, sums.chain.copy().shift(shift)),
                    GrowArrow(arrows[1]),
                ],
                "dim": [Create(run), outline(change.get_entry(self.across))],
                "w_o": [InTurn(GrowFromCenter(w_o), GrowArrow(onto))],
            },
            dim=self.dim_names(ex)[self.across],
            eat=self.spoken(f"{EAT}.last_row.outputs[0][{self.across}]", 2),
        )
        self.say(
            "moved",
            FadeIn(equals),
            TransformFromCopy(VGroup(x, change), new),
            Create(box),
            FadeOut(sums.arrows),
            FadeOut(run),
            *(FadeOut(d) for j in range(ex.short) if (d := sums.get_dot(j)) is not None),
            then=[[GrowArrow(arrows[2]), FadeIn(labels[2])]],
        )
        # the two ideas the next chapter tries, named under the sentence they will be tried on:
        # the picture dead_ends opens on
        said, ideas = two_ideas(self)
        self.say(
            "how",
            outline(VGroup(change, change_label), arrows[1]),
            beats={
                "dead": [
                    *(FadeOut(m) for m in self.mobjects if m not in (self.title, sentence)),
                    ReplacementTransform(sentence, said),
                    FadeIn(ideas, shift=UP * 0.2, lag_ratio=0.3),
                ]
            },
        )

    def _columns(self, rows: list[list[float]], name: str, decimals: int, words: VGroup) -> VGroup:
        """One Value-coloured column vector under each word: ``rows[j]`` (data path
        ``tokens.eat_apple.<name>[j]``) under ``words[j]``."""
        return VGroup(
            *(
                NumberVector(
                    rows[j],
                    f"{EAT}.{name}[{j}]",
                    "",
                    style.VALUE,
                    decimals,
                    style.LABEL_SIZE,
                    column=True,
                ).next_to(word, DOWN, buff=style.GROUP_BUFF)
                for j, word in enumerate(words)
            )
        )

    def _plane(self, x: NumberVector, change: NumberVector, new: NumberVector) -> tuple:
        """The eat-food plane: the word's vector, the change, and where they land."""
        ex, i = self.ex, self.ex.query_index
        points = [ex.x[i], ex.residual]
        low = min(0.0, *(p[c] for p in points for c in (self.across, self.up)))
        high = max(1.5, *(p[c] for p in points for c in (self.across, self.up)))
        span = [math.floor(low * 2) / 2, math.ceil(high * 2) / 2, 0.5]
        plane = style.muted_axes(span, span, PLANE_SIDE, PLANE_SIDE)
        names = self.dim_names(ex)
        axis_x = style.text(names[self.across], style.LABEL_SIZE, style.MUTED)
        axis_y = style.text(names[self.up], style.LABEL_SIZE, style.MUTED)
        axis_x.next_to(plane.x_axis, DOWN, buff=style.ITEM_BUFF)
        axis_y.next_to(plane.y_axis, LEFT, buff=style.ITEM_BUFF)

        def point(v: list[float]):
            return plane.c2p(v[self.across], v[self.up])

        start, tip, end = plane.c2p(0, 0), point(ex.x[i]), point(ex.residual)
        arrows = VGroup(
            Arrow(start, tip, buff=0, color=style.FOREGROUND),
            Arrow(tip, end, buff=0, color=style.MUTED),
            Arrow(start, end, buff=0, color=style.RESULT, stroke_width=8),
        )
        meaning = style.text(self.words["new"], style.LABEL_SIZE).next_to(
            end, UP, buff=style.ITEM_BUFF
        )
        return plane, arrows, VGroup(axis_x, axis_y, meaning)


@seam_builder
def two_ideas(scene: LectureScene) -> VGroup:
    """why's last picture, dead_ends' first: the short sentence (我 吃 蘋果) and under it the
    two ideas dead_ends tries (in its words, muted: not tried yet), in the middle."""
    ex = scene.data.eat_apple
    sentence = VGroup(
        *(style.text(w, style.TITLE_SIZE) for w in scene.apple_words()[: ex.short])
    ).arrange(RIGHT, buff=style.WIDE_BUFF)
    dead = scene.shared("dead_ends")
    ideas = VGroup(
        *(style.text(dead[k], style.BODY_SIZE, style.MUTED) for k in ("method_1", "method_2"))
    ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
    picture = VGroup(sentence, ideas).arrange(DOWN, buff=style.SECTION_BUFF)
    style.place(picture, grow=IDEAS_GROW)
    return picture
