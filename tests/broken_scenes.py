"""Deliberately broken scenes: each gate must catch its own kind of mistake."""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UL, FadeIn, Scene, Text

from scenes.gates.run import allow_overlap
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.numbers import Ref, ShownNumber, Spoken
from scenes.kit.seams import seam


class OffFrame(Scene):
    def construct(self) -> None:
        self.play(FadeIn(style.text("出界了").move_to(RIGHT * 7.3)))


class OverlappingLabels(Scene):
    def construct(self) -> None:
        self.add(style.text("Query"))
        self.play(FadeIn(style.text("Key")))


class AllowedOverlap(Scene):
    def construct(self) -> None:
        self.add(style.text("Query"))
        self.play(FadeIn(allow_overlap(style.text("Key"))))
        self.add_subcaption("刻意疊在一起", duration=1)
        self.wait(1)


class TinyText(Scene):
    def construct(self) -> None:
        self.play(FadeIn(style.text("太小", size=8)))


class FastSubtitle(Scene):
    def construct(self) -> None:
        self.add_subcaption("這一句字幕很長很長，但是只在畫面上停留一秒鐘", duration=1)
        self.wait(1)


class LateSubtitles(Scene):
    def construct(self) -> None:
        self.add_subcaption("第一句", duration=2)
        self.add_subcaption("第二句太早開始", duration=2, offset=1)
        self.wait(1)


class WrongNumber(Scene):
    """Shows 0.50 where the data file has the trained weight of about 0.33."""

    def construct(self) -> None:
        self.play(FadeIn(ShownNumber(0.5, 2, Ref("examples.mixed.attention[0][0]"))))


class MissingSource(Scene):
    def construct(self) -> None:
        self.play(FadeIn(ShownNumber(0.5, 2, Ref("examples.nope.attention[0][0]"))))


class TypedNumber(Scene):
    def construct(self) -> None:
        self.play(FadeIn(Text("loss 0.0003")))


class WrongSpokenNumber(LectureScene):
    """Says 0.50 where the data file has the trained weight of about 0.33."""

    scene_key = "template"
    reads = ("examples.mixed",)

    def construct(self) -> None:
        self.say("result_say", w=Spoken(0.5, 2, Ref("examples.mixed.attention[0][0]")))


class InOneCorner(LectureScene):
    scene_key = "template"

    def construct(self) -> None:
        self.say("result_say", FadeIn(style.text("角落").to_corner(UL, buff=1.5)))


class IntoSubtitleBand(Scene):
    def construct(self) -> None:
        self.play(FadeIn(style.text("太低").move_to(DOWN * 3.2)))


class StillLine(LectureScene):
    scene_key = "template"

    def construct(self) -> None:
        self.say("intro", FadeIn(style.text("一個畫面").scale(4)), beats={"cues": []})
        self.say("result_say")  # read over a picture that does not move


class UndeclaredTable(LectureScene):
    scene_key = "template"

    def construct(self) -> None:  # multihead's head names, its class declaring no tables
        self.say("intro", FadeIn(style.text(self.shared("multihead")["head"])))


class OpensBesideTheSeam(LectureScene):
    """Declares it opens on scoring's table, but its first frame has it a unit to the left."""

    scene_key = "template"
    reads = ("tokens.eat_apple",)
    tables = ("scoring",)
    opens_on = "score_table"

    def construct(self) -> None:
        table = seam(self, self.opens_on).shift(LEFT)
        self.add(table)
        self.say("result_say", table.animate.shift(RIGHT))


class EndsOnMore(LectureScene):
    """Declares it ends on scoring's table, but leaves a line of text beside it."""

    scene_key = "template"
    reads = ("tokens.eat_apple",)
    tables = ("scoring",)
    ends_on = "score_table"

    def construct(self) -> None:
        self.say("result_say", FadeIn(seam(self, self.ends_on), style.text("還在").to_edge(LEFT)))
