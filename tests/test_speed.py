"""The speed-ups change no frame, share their cache safely, and order the work."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from types import FunctionType

import av
import numpy as np
import pytest
from manim import (
    BLUE,
    DOWN,
    LEFT,
    ORANGE,
    RED,
    RIGHT,
    UP,
    AnimationGroup,
    ApplyMethod,
    Circle,
    Dot,
    FadeIn,
    FadeOut,
    Group,
    Indicate,
    MoveToTarget,
    ReplacementTransform,
    Scene,
    Square,
    Text,
    Transform,
    VGroup,
    tempconfig,
)

from common.settings import Settings
from common.timers import SHARES, profile_file
from pipeline.jobs import Job, JobResult, RenderTimes, worker_env
from scenes.gates.endstates import end_states_only
from scenes.gates.video import compare_videos, read_video
from scenes.kit.seams import picture_leaves
from scenes.patches import fastframes
from syllabus.plan import Chapter, load_plan
from syllabus.presets import PRESETS, Preset

ROOT = Path(__file__).resolve().parent.parent


class _Moves(Scene):
    """Fades (outlines unchanged), a transform (outlines changed), a colour change, holds."""

    def construct(self) -> None:
        words = Text("注意力 attention", font_size=36)
        shapes = VGroup(Square(), Circle()).arrange(buff=0.5).next_to(words, DOWN)
        self.play(FadeIn(words), FadeIn(shapes))
        self.wait(0.4)
        self.play(Transform(shapes[0], Circle(color=ORANGE).move_to(shapes[0])))
        self.play(words.animate.set_color(BLUE))
        self.wait(0.4)


def _render(folder: Path, encoder: dict[str, str] | None = None) -> Path:
    settings = {"media_dir": str(folder), "pixel_width": 320, "pixel_height": 180}
    settings |= {"video_encoder_options": encoder} if encoder else {}
    with tempconfig({**settings, "frame_rate": 15, "disable_caching": True, "verbosity": "ERROR"}):
        scene = _Moves()
        scene.render()
        return Path(scene.renderer.file_writer.movie_file_path)


_IMPORT_ONLY = """
from manim import Mobject, Text
from scenes.patches import fastbounds, fastcopy, fastfamily, gctune, textmemo
import scenes.chapters.weighted_sum, scenes.gates.run
from scenes.kit import style
print(Mobject.__deepcopy__ is fastcopy._deepcopy, Text.__init__ is textmemo._init)
print(Mobject.get_family is fastfamily.get_family)
print(Mobject.reduce_across_dimension is fastbounds.reduce_across_dimension)
import gc; print(gc.get_threshold() != gctune.THRESHOLDS)
print(hasattr(style, "FOREGROUND"))
"""


def test_importing_a_chapter_patches_nothing_and_chooses_no_theme() -> None:
    """Manim is patched by whoever runs a scene (the worker, the gates, a scene's setup) and
    the theme chosen by the scene, never as a side effect of importing the kit."""
    command = [sys.executable, "-c", _IMPORT_ONLY]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "False", "False", "True", "False"]


def test_installing_the_speed_ups_twice_changes_nothing() -> None:
    """A second install (the scene's own, after the worker's) keeps what came between."""
    from common.settings import settings
    from scenes import patches
    from scenes.patches import fastbounds, fastcopy, fastfamily, gctune

    patches.install(settings())
    mine = fastframes._write_frame
    try:
        fastframes.VideoSegmentEncoder.write_frame = lambda *args: None  # a profile's timer
        timer = fastframes.VideoSegmentEncoder.write_frame
        patches.install(settings())
        assert fastframes.VideoSegmentEncoder.write_frame is timer
    finally:
        fastframes.VideoSegmentEncoder.write_frame = mine
    from manim import Mobject

    assert Mobject.__deepcopy__ is fastcopy._deepcopy
    assert Mobject.get_family is fastfamily.get_family
    assert Mobject.reduce_across_dimension is fastbounds.reduce_across_dimension
    assert gc.get_threshold() == gctune.THRESHOLDS


def _tree():
    """Mobjects of every shape the lecture's boxes are asked of: a text's glyphs, a formula,
    a lone point, an empty group, an arrow with its tip, nested and shared groups."""
    from manim import Arrow, VMobject

    lone = VMobject().set_points(np.array([[0.3, -2.0, 0.0]]))
    a, b = Square().shift(2 * LEFT), Circle(radius=0.4).shift(UP + 3 * RIGHT)
    inner = VGroup(a, b)
    text = Text("蘋果 0.54").next_to(a, DOWN)
    return Group(VGroup(inner, Arrow(LEFT, 2 * UP + RIGHT)), text, VGroup(), lone, Dot(), inner)


def test_the_fast_family_is_manims_family() -> None:
    """The faster family list is Manim's own, member for member and in order: on a tree with
    a member shared by two groups, one repeated in one group, a cycle and a text's glyphs."""
    from manim import Mobject

    from scenes.patches import fastfamily

    a, b, c = Square(), Circle(), Square()
    inner = VGroup(a, b)
    repeated = VGroup(inner, c)
    repeated.submobjects.append(inner)  # inner twice: each member kept at its last place
    loop = VGroup(Square())
    loop.submobjects.append(loop)  # a cycle
    top = Group(repeated, VGroup(b, c), Mobject(), loop, _tree())
    for mobject in (top, repeated, inner, a, loop, Group(top, Group(top))):
        assert fastfamily.get_family(mobject) == fastfamily._own(mobject)
    assert len(fastfamily.get_family(repeated)) == 5  # not 7: the repeats are dropped


def test_the_fast_boxes_are_manims_boxes() -> None:
    """Corners, edges, centres, widths and heights from the fast bounds are Manim's own,
    to the last bit, for every member of the tree and the tree itself."""
    from manim import Mobject, VMobject

    from scenes.patches import fastbounds

    tree = _tree()
    corners = [np.array([x, y, 0.0]) for x in (-1, 0, 1) for y in (-1, 0, 1)]
    for m in [tree, *tree.get_family()]:
        for reduce in (max, min):
            for dim in range(3):
                fast = fastbounds.reduce_across_dimension(m, reduce, dim)
                assert fast == fastbounds._own_reduce(m, reduce, dim)
        if isinstance(m, VMobject):
            fast = fastbounds.get_points_defining_boundary(m)
            own = fastbounds._own_boundary(m)
            assert fast.shape == own.shape and (fast == own).all(), m
    try:
        fastbounds.install()
        fast = [tree.get_critical_point(d) for d in corners] + [tree.width, tree.height]
    finally:
        VMobject.get_points_defining_boundary = fastbounds._own_boundary
        Mobject.reduce_across_dimension = fastbounds._own_reduce
    own = [tree.get_critical_point(d) for d in corners] + [tree.width, tree.height]
    assert all(np.array_equal(f, o) for f, o in zip(fast, own, strict=True))


@pytest.mark.usefixtures("kit")
def test_a_text_made_twice_is_a_copy_of_the_first_and_its_own() -> None:
    """The second text of one recipe has the first's points and style, but its own objects:
    what is done to one never reaches the other, nor the next; a number keeps its own value
    and source; the theme's default colour is part of the recipe."""
    from manim import VMobject

    from scenes.kit.numbers import Ref, ShownNumber
    from scenes.patches import textmemo

    textmemo.install()
    first = ShownNumber(0.1312, 2, Ref("a"))
    first.shift(UP).set_color(RED)  # after it was made: not part of the recipe
    second = ShownNumber(0.1298, 2, Ref("b"))
    third = ShownNumber(0.1301, 2, Ref("c"))
    assert (second.value, str(second.source)) == (0.1298, "b")
    assert second.text == first.text == "0.13" and second.get_center()[1] != first.get_center()[1]
    assert [len(g.points) for g in second] == [len(g.points) for g in first]
    assert all(np.array_equal(s.points, t.points) for s, t in zip(second, third, strict=True))
    assert second.get_color() == third.get_color() != first.get_color()
    assert not {id(m) for m in second.get_family()} & {id(m) for m in third.get_family()}
    second.submobjects[0].shift(RIGHT)
    assert not np.array_equal(second.submobjects[0].points, third.submobjects[0].points)
    plain = Text("0.13")  # no colour of its own: Manim's default, which the theme sets
    try:
        VMobject.set_default(color=RED)
        red = Text("0.13")
    finally:
        VMobject.set_default()
    assert red.get_color() == RED != plain.get_color()


def _packets(path: Path) -> int:
    with av.open(str(path)) as container:
        return sum(p.dts is not None for p in container.demux(container.streams.video[0]))


def test_fast_frames_are_manims_frames(tmp_path: Path) -> None:
    """Losslessly encoded (x264 at crf 0, so that decoding gives back what was encoded), the
    fast path's video is Manim's frame for frame at the constant rate; each hold is one
    picture in the file (6 frames each: 5 fewer pictures a hold, two holds)."""
    lossless = {"crf": "0"}
    fastframes.uninstall()
    try:
        plain = _render(tmp_path / "plain", lossless)
    finally:
        fastframes.install()
    fast = _render(tmp_path / "fast", lossless)
    assert read_video(plain).frames == 15 * 0.8 + 3 * 15  # holds and moves, all there
    assert compare_videos(plain, fast) == []  # decoded and hashed, frame by frame
    assert _packets(plain) - _packets(fast) == 2 * 5


_FORMULAS = r"""
import sys
from pathlib import Path
from types import FunctionType
from manim import MathTex, Text
from scenes.patches import texcache
texcache.install(Path(sys.argv[1]))
for k in range(4):
    MathTex(rf"\frac{{QK^\top}}{{\sqrt{{{k + 2}}}}}")
for k in range(60):  # the same texts again and again: Manim used to rewrite them each time
    Text(f"第 {k % 4} 句")
"""


def _make_formulas(cache: Path, env: dict[str, str]) -> subprocess.Popen:
    command = [sys.executable, "-c", _FORMULAS, str(cache)]
    return subprocess.Popen(command, cwd=tmp_cwd(cache), env=env, stderr=subprocess.PIPE, text=True)


def tmp_cwd(cache: Path) -> Path:
    """Each process its own working folder: only the cache is shared."""
    folder = cache.parent / f"cwd-{len(list(cache.parent.glob('cwd-*')))}"
    folder.mkdir()
    return folder


def test_formulas_and_texts_are_shared_whole_between_processes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    racing = [_make_formulas(cache, env) for _ in range(2)]  # the same formulas at once
    for process in racing:
        assert process.wait(timeout=120) == 0, process.stderr.read()
    assert len(list((cache / "tex").glob("*.svg"))) == 4
    assert len(list((cache / "texts").glob("*.svg"))) == 4
    assert not [p for p in cache.rglob(".*")]  # no private file or folder left behind
    written = {p: p.stat().st_mtime_ns for p in cache.rglob("*.svg")}
    no_latex = {**env, "PATH": str(tmp_path)}  # latex cannot run: every formula is cached
    again = _make_formulas(cache, no_latex)
    assert again.wait(timeout=120) == 0, again.stderr.read()
    # read, never rewritten: another worker reading a cached file never finds it half-written
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*.svg")} == written


def test_longest_scenes_start_first_and_new_ones_before_them(tmp_path: Path) -> None:
    chapters = load_plan()[:4]
    jobs = [Job(c, PRESETS["low"], tmp_path, {"LECTURE_LANG": "en"}) for c in chapters]
    times = RenderTimes(tmp_path / "times.json")
    assert times.longest_first(jobs) == jobs  # nothing known: the plan's order
    seconds = (5, 30, 1, 9)
    times.record([JobResult(job, True, s) for job, s in zip(jobs, seconds, strict=True)])
    times.record([JobResult(jobs[2], False, 99)])  # a failed render's time is not kept
    again = RenderTimes(tmp_path / "times.json")
    assert [job.chapter for job in again.longest_first(jobs)] == [chapters[k] for k in (1, 3, 0, 2)]
    fresh = Job(load_plan()[5], PRESETS["low"], tmp_path, {"LECTURE_LANG": "en"})
    assert again.longest_first([*jobs, fresh])[0] is fresh
    assert json.loads((tmp_path / "times.json").read_text())[jobs[1].key()] == 30


def _ends(lazy: bool) -> list:
    """The picture after each animation of a dry run that plays each kind of transform."""

    ends = []

    class Kinds(Scene):
        def construct(self) -> None:
            square, circle = Square(color=RED), Circle(color=BLUE, fill_opacity=0.5).shift(2 * UP)
            row = VGroup(*(Dot() for _ in range(4))).arrange(RIGHT)
            self.add(square, row)
            dot = Dot().shift(3 * LEFT)
            dot.generate_target()
            dot.target.scale(3).set_color(RED).shift(DOWN)
            plays = [
                Transform(square, circle),
                ReplacementTransform(row, VGroup(Square(), Square()).arrange(DOWN).shift(RIGHT)),
                ApplyMethod(square.shift, 2 * RIGHT),
                FadeIn(dot, shift=UP),
                MoveToTarget(dot),
                Indicate(square),  # there and back: ends where it began
                AnimationGroup(*(FadeIn(Dot().shift(i * DOWN)) for i in range(3)), lag_ratio=0.5),
                FadeIn(Group(Circle(), Square().shift(RIGHT))),
                circle.animate.scale(0.6).set_color(RED),  # its finish() scales once more
                FadeOut(square, scale=0.5),  # put back as it was once removed:
                lambda: FadeIn(square.copy().shift(DOWN)),  # a copy of it is seen whole
            ]
            for animation in plays:
                self.play(animation() if isinstance(animation, FunctionType) else animation)
                ends.append(picture_leaves(self.mobjects))

    dry = {"dry_run": True, "disable_caching": True, "quality": "low_quality"}
    with tempconfig(dry), end_states_only() if lazy else contextlib.nullcontext():
        Kinds(skip_animations=True).render()
    return ends


def test_the_gates_dry_run_ends_each_transform_where_manim_does() -> None:
    lazy, full = _ends(True), _ends(False)
    assert len(lazy) == len(full) == 11 and all(len(f) for f in full)
    for step, (a, b) in enumerate(zip(lazy, full, strict=True)):
        order_a, order_b = np.lexsort(a.T[::-1]), np.lexsort(b.T[::-1])
        assert a.shape == b.shape and np.allclose(a[order_a], b[order_b], atol=1e-6), step
    assert "interpolate_mobject" not in Transform.__dict__  # Manim's own again after


def test_a_held_picture_is_one_sample_lasting_the_hold(tmp_path: Path) -> None:
    """Frames that repeat the one before, handed over one by one or as one frame with
    ``repeat``, are encoded once, lasting all of them (with the render's encoder options):
    the samples' durations add up to every frame, and read at the constant rate the video
    is every frame handed over, in order."""
    from fractions import Fraction

    from manim._config.video_encoder import VideoEncoderSpec
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    from common.video import constant_rate, length_ticks
    from pipeline.jobs import ENCODER_OPTIONS

    options = tuple(tuple(option.split("=")) for option in ENCODER_OPTIONS)
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", 96, 64, Fraction(15), options)
    rng = np.random.default_rng(0)
    pictures = [rng.integers(0, 255, (64, 96, 4), dtype=np.uint8) for _ in range(4)]
    # (picture, repeat) in the order handed over: a hold given frame by frame, then with
    # repeat, a picture between, and the segment ending on a hold given frame by frame
    handed = [(0, 1), (1, 1), (1, 1), (1, 1), (2, 5), (3, 1), (2, 1), (2, 1)]
    encoder = VideoSegmentEncoder(target=tmp_path / "held.mp4", spec=spec)
    for picture, repeat in handed:
        encoder.write_frame(pictures[picture].copy(), repeat=repeat)
    encoder.finish()
    frames = [picture for picture, repeat in handed for _ in range(repeat)]
    assert _packets(tmp_path / "held.mp4") == 5  # one sample for each picture shown
    with av.open(str(tmp_path / "held.mp4")) as container:
        assert length_ticks(container) == len(frames) * 1024  # 15 fps in 1/15360 s
        decoded = [f.to_ndarray(format="rgb24") for f in constant_rate(container)]
    assert len(decoded) == len(frames)
    for frame, picture in zip(decoded, frames, strict=True):  # each the picture it was
        errors = [np.abs(frame.astype(int) - p[..., :3]).mean() for p in pictures]
        assert int(np.argmin(errors)) == picture


def test_a_profiled_worker_charges_every_cpu_second_it_spends(tmp_path: Path) -> None:
    """A worker with the profile setting writes its shares: together they are its whole
    CPU time as the system counts it (all but the interpreter's clean-up after they are
    written), the frames are counted by kind, and what the scene does is where it goes."""
    first = Chapter("first", ROOT / "tests" / "lecture_scenes" / "first.py", "First")
    env = worker_env(Settings(profile=tmp_path / "profile"))
    job = Job(first, Preset("tiny", 320, 180, 15), tmp_path / "media", env)
    worker = subprocess.Popen(job.command(), cwd=ROOT, env=env, stderr=subprocess.PIPE)
    _, status, used = os.wait4(worker.pid, 0)
    assert status == 0, worker.stderr.read()
    found = json.loads(profile_file(tmp_path / "profile", Settings().lang, "first").read_text())
    charged = sum(found["cpu"].values())
    assert set(found["cpu"]) <= set(SHARES)
    assert charged == pytest.approx(found["process_cpu"], abs=0.01)
    assert 0 <= used.ru_utime + used.ru_stime - charged < 0.5  # the clean-up: about 0.2 s
    assert found["frames"] == {"moving": 15, "held": 15, "holds": 1}  # 1 s moving, 1 s held
    assert found["seconds"] == 2.0
    for share in ("drawing", "colour conversion", "encoding, moving", "encoding, holds"):
        assert found["cpu"][share] > 0, share
