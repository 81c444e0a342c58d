"""Golden frames of the shared components (Manim's frames_comparison).

Control frames live in tests/control_data/components; rewrite them after a deliberate
change with ``pytest tests/test_components.py --set_test`` and look at them. The frames keep
Chinese text out; their digits and Latin letters use the lecture's font, so a different
font version may move a few pixels: :data:`TEXT_MISMATCH_RATIO` is the explicit tolerance.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, MathTex, Scene, VGroup, tempconfig
from manim.utils.testing import _frames_testers
from manim.utils.testing import frames_comparison as _comparison
from manim.utils.testing.frames_comparison import frames_comparison

from scenes.kit import style
from scenes.kit.devices import DotArrows, ExpCurve, Knob, ModelBox, RandomWalks, output_row
from scenes.kit.diagrams import LossPlot
from scenes.kit.labels import ColourMarker, ContentsList, TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.vectors import (
    ExpBars,
    FixedInputNetwork,
    Fork,
    LookingArrows,
    NumberVector,
    ShareBar,
    WeightBars,
)

__module_test__ = "components"

# Manim skips golden frames on cairo older than 1.18 because its own control frames were
# drawn with 1.18. Ours are drawn here, with Debian 12's cairo 1.16, so they are compared.
_comparison.MIN_CAIRO_VERSION = 0

# Share of pixel values allowed to differ in frames that hold text (font hinting may move a
# few); shapes alone are compared at Manim's default.
TEXT_MISMATCH_RATIO = 2e-3
CONTROL = Path(__file__).parent / "control_data" / __module_test__
WEIGHTS = [[0.5, 0.5, 0.0], [0.125, 0.75, 0.125], [0.0, 0.0, 1.0]]


@pytest.fixture
def text_tolerance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_frames_testers, "FRAME_MISMATCH_RATIO_TOLERANCE", TEXT_MISMATCH_RATIO)


pytestmark = pytest.mark.usefixtures("kit", "text_tolerance")


def _markers() -> list[ColourMarker]:
    return [
        ColourMarker(style.TASK_COLOURS[name], name[0].upper()) for name in ("red", "green", "blue")
    ]


def _grid(weights: list[list[float]]) -> AttentionGrid:
    return AttentionGrid(weights, "w", row_headers=_markers(), col_headers=_markers())


@frames_comparison
def test_attention_grid(scene: Scene) -> None:
    scene.add(_grid(WEIGHTS))


@frames_comparison
def test_masked_grid(scene: Scene) -> None:
    """A causal map: masked cells (None) are left empty, the rest as usual."""
    scene.add(_grid([[1.0, None, None], [0.4, 0.6, None], [0.2, 0.3, 0.5]]))


@frames_comparison
def test_contents_list(scene: Scene) -> None:
    contents = ContentsList("Today", ["Why", "How it works", "Pitfalls"])
    scene.add(contents, contents.frame(1))


@frames_comparison
def test_looking_arrows(scene: Scene) -> None:
    words = VGroup(*(style.text(w) for w in ("I", "eat", "apple"))).arrange(RIGHT, buff=1.5)
    scene.add(words, LookingArrows(words, 2, [0.17, 0.54, 0.29], "w"))


@frames_comparison
def test_colour_markers(scene: Scene) -> None:
    scene.add(VGroup(*_markers()).scale(2).arrange(DOWN))


@frames_comparison
def test_token_strip(scene: Scene) -> None:
    scene.add(TokenStrip(_markers(), [0.39, -1.21, 1.04], "values"))


@frames_comparison
def test_weight_bars(scene: Scene) -> None:
    labels = [style.text(word, style.LABEL_SIZE) for word in ("The", "cat", "sat")]
    scene.add(WeightBars(labels, [0.1, 0.7, 0.2], "w"))


@frames_comparison
def test_share_bar(scene: Scene) -> None:
    """exps sharing one bar in the heat of their shares; weights sharing one in task colours."""
    fills = [style.TASK_COLOURS[name].fill for name in ("red", "green", "blue")]
    exps = ShareBar([1.0, 2.7, 7.4], length=6)
    weights = ShareBar([0.2, 0.5, 0.3], 6, fills=fills, edge_width=2)
    scene.add(VGroup(exps, weights).arrange(DOWN, buff=0.5))


@frames_comparison
def test_exp_bars(scene: Scene) -> None:
    """Signed scores on their zero line; beside them the same scores as exp towers on a floor."""
    fills = [style.TASK_COLOURS[name].fill for name in ("red", "green", "blue", "red")]
    bars = ExpBars([2.0, -1.0, 1.0, 2.0], step=1.0, height=4, fills=fills)
    towers = VGroup(bars.get_floor(), bars.get_towers()).next_to(bars, RIGHT, buff=1)
    scene.add(VGroup(bars, towers).move_to(ORIGIN))


def test_exp_bars_towers_are_exps_on_the_floor() -> None:
    """Each tower is e^(s - max) times the tallest, all standing on the floor under the lowest
    bar; a bar goes up from the zero line for a positive score and down for a negative one."""
    scores = [2.0, -1.0, 1.0, 0.5]
    bars = ExpBars(scores, step=1.0, height=3)
    towers, floor, zero = bars.get_towers(), bars.get_floor(), bars.get_baseline()
    heights = np.array([t.height for t in towers])
    assert np.allclose(heights / heights.max(), np.exp(np.array(scores) - 2.0))
    assert np.isclose(heights.max(), 3) and np.isclose(bars.height, 3)
    assert all(np.isclose(t.get_bottom()[1], floor.get_y()) for t in towers)
    assert np.isclose(bars.get_bars()[1].get_top()[1], zero.get_y())
    assert np.isclose(bars.get_bars()[0].get_bottom()[1], zero.get_y())
    assert np.isclose(floor.get_y(), bars.get_bars()[1].get_bottom()[1])
    with pytest.raises(ValueError, match="exp bars"):
        ExpBars([-1.0, -2.0], step=1.0, height=3)


@frames_comparison
def test_fork(scene: Scene) -> None:
    """x through W_K and W_V: an arrow into each framed matrix, one out to what it makes."""
    k = (MathTex("W_K", color=style.KEY), MathTex("k", color=style.KEY))
    v = (MathTex("W_V", color=style.VALUE), MathTex("v", color=style.VALUE))
    scene.add(Fork(MathTex("x"), [k, v]).scale(2))


def test_fork_arrows_join_input_matrix_and_output() -> None:
    """Each branch's arrows start at the input's right edge and end at its matrix, then run
    from the matrix to its output, whatever the labels' widths."""
    branches = [(MathTex("W_K"), MathTex("k(\\text{cat})")), (MathTex("W_V"), MathTex("v"))]
    fork = Fork(MathTex("x"), branches)
    for arrow, matrix, out, passing in zip(
        fork.inputs, fork.matrices, fork.outputs, fork.passes, strict=True
    ):
        assert arrow.get_start()[0] >= fork.source.get_right()[0] - 1e-6
        assert arrow.get_end()[0] <= matrix.get_left()[0] + 1e-6
        assert passing.get_start()[0] >= matrix.get_right()[0] - 1e-6
        assert passing.get_end()[0] <= out.get_left()[0] + 1e-6
    assert fork.matrices[0].get_y() > fork.matrices[1].get_y()  # the first branch on top


def test_share_bar_parts_fill_the_bar() -> None:
    """Whatever the values, the parts are proportional to them and fill the bar end to end;
    a negative value is refused."""
    bar = ShareBar([1.0, 2.7, 7.4], length=6)
    widths = [bar.get_part(j).width for j in range(3)]
    assert np.isclose(sum(widths), 6) and np.isclose(bar.width, 6, atol=0.05)
    assert np.allclose(np.array(widths) / 6, np.array([1.0, 2.7, 7.4]) / 11.1)
    with pytest.raises(ValueError, match="share bar"):
        ShareBar([0.5, -0.1], length=6)


@frames_comparison
def test_model_box(scene: Scene) -> None:
    """The model with a sequence over it and its outputs under the strip's columns."""
    strip = TokenStrip(_markers(), [0.39, -1.21, 1.04], "values")
    box = ModelBox(strip.width + 2, "head", "readout").next_to(strip, DOWN, buff=0.05)
    outputs = output_row([0.4, -1.2, 1.0], "p", list(strip.columns), r"\hat{y}")
    scene.add(strip, box, outputs.next_to(box, DOWN, buff=0.05).align_to(strip, RIGHT))


@frames_comparison
def test_loss_plot_levels(scene: Scene) -> None:
    """A log-scale loss with two levels marked (a baseline over it, a validation under it)."""
    losses = [0.4 * 0.97**k + 1e-4 for k in range(300)]
    plot = LossPlot(losses, "training.steps", "step", also=(0.3, 5e-5), room=1)
    scene.add(plot, plot.mark(0.3, style.text("0.3")), plot.mark(5e-5, style.text("5e-5")))


@frames_comparison
def test_knob(scene: Scene) -> None:
    """A dial of six notches, turned to its third."""
    scene.add(Knob(6, "scale", at=2))


@frames_comparison
def test_random_walks(scene: Scene) -> None:
    """Two fixed walks with their band ±√t, and the same walks divided by √t."""
    up = [0.8 * (t + 1) ** 0.5 for t in range(100)]
    down = [-1.5 * (t + 1) ** 0.5 for t in range(100)]
    walks = RandomWalks([up, down], "d")
    scene.add(walks, walks.band(), walks.divided(), walks.flat_band())


@frames_comparison
def test_random_walks_spread(scene: Scene) -> None:
    """Two fixed walks and their spread after 25 terms and after all 100."""
    up = [0.8 * (t + 1) ** 0.5 for t in range(100)]
    down = [-1.5 * (t + 1) ** 0.5 for t in range(100)]
    walks = RandomWalks([up, down], "d")
    scene.add(walks, walks.spread(25), walks.spread(100))


@frames_comparison
def test_dot_arrows(scene: Scene) -> None:
    """Two 4-wide vectors in their own plane: the angle between them and k's shadow on q."""
    scene.add(DotArrows([0.8, 2.0, 0.8, 0.0], [0.0, 2.0, 0.0, 0.0], "q", "k"))


@frames_comparison
def test_exp_curve(scene: Scene) -> None:
    """Three scores risen to y = eˣ, one +1 step (×e), and the gap 1.4 → 2 marked on both axes."""
    from manim import MathTex

    scores = [0.84, 2.0, 1.4]
    curve = ExpCurve(scores, [2.71828**s for s in scores], "s", "e", x_range=(-2, 2.5))
    step = curve.step(1.0, MathTex("+1"), MathTex(r"\times e"))
    scene.add(curve, *curve.get_rises(), curve.gap_marks(2, 1), step, curve.rise_from(-1.7))


@frames_comparison
def test_slope_plot(scene: Scene) -> None:
    """w (1 − w) with two weights read off it, each with its height: 0.94 nearly flat, 0.37
    near the top."""
    from scenes.kit.plots import SlopePlot

    points = [
        (0.94, 0.94 * 0.06, style.tick_label("0.06"), style.WITHOUT, LEFT),
        (0.37, 0.37 * 0.63, style.tick_label("0.23"), style.WITH, UP),
    ]
    scene.add(SlopePlot(points))


@frames_comparison
def test_tip_to_tail(scene: Scene) -> None:
    """Three scaled vectors tip to tail on a plane of two of their dimensions, and their sum;
    the first has nothing on the plane: a dot with its share."""
    from scenes.kit.sums import TipToTail

    plane = style.muted_axes([0, 1.5, 0.5], [0, 1.5, 0.5], 4, 4)
    v = [[1.0, 0.0, 0.0, 0.2], [0.0, 1.0, 0.0, 0.0], [0.0, 0.5, 1.0, 0.0]]
    sums = TipToTail(plane, v, [0.2, 0.5, 0.3], "w", ["a", "b", "c"], (1, 2))
    scene.add(plane, sums, sums.chain, sums.total, sums.dots)


@frames_comparison
def test_sum_line(scene: Scene) -> None:
    """Five values as tracks on a days line, their weighted terms end to end, the sum marked."""
    from manim import NumberLine

    from scenes.kit.sums import SumLine

    axis = NumberLine(x_range=[0, 10, 1], length=6, include_tip=False)
    sums = SumLine(axis, [5, 1, 3, 7, 10], [0.56, 0.01, 0.1, 0.04, 0.29])
    scene.add(axis, sums.tracks, sums.terms, sums.end)


@frames_comparison
def test_shadows(scene: Scene) -> None:
    """Three points dropped onto a slanted line, one behind the origin; a label kept off the
    name that would cover its first place."""
    from manim import ORIGIN, UP, Dot

    from scenes.kit.diagrams import Shadows

    points = [2 * RIGHT + UP, -1.5 * RIGHT + UP, 0.5 * RIGHT - 1.5 * UP]
    labels = [style.text(t, style.SMALL_SIZE) for t in ("2.0", "-1.5", "0.5")]
    name = style.text("name", style.SMALL_SIZE).move_to(1.2 * RIGHT + 0.1 * UP)
    scene.add(*(Dot(p, color=style.KEY) for p in points), name)
    scene.add(Shadows(ORIGIN, RIGHT + 0.3 * UP, points, labels, reach=3, avoid=[name]))


def test_dot_arrows_are_exact() -> None:
    """The drawing's lengths give the dot product: |q| times k's shadow on q."""
    q, k = [0.8, 2.0, 0.8, 0.0], [0.0, 0.6, 2.0, 0.0]
    drawn = DotArrows(q, k, "q", "k", unit=1.0)
    shadow = drawn.shadow.get_length() * np.sign(drawn.shadow.get_end()[0])
    dot = sum(a * b for a, b in zip(q, k, strict=True))
    assert np.isclose(drawn.a.get_length() * shadow, dot, rtol=1e-3)
    assert np.isclose(drawn.b.get_length(), np.linalg.norm(k), rtol=1e-3)


@frames_comparison
def test_number_vectors(scene: Scene) -> None:
    q = NumberVector([0.5, 2.0, 0.8, 0.0], "q", "q", style.QUERY)
    k = NumberVector([0.0, 0.5, 2.0, 0.0], "k", "k", style.KEY)
    v = NumberVector([0.0, 0.0, 1.0, 0.0], "v", "v", style.VALUE)
    scene.add(VGroup(q, k, v).arrange(DOWN, aligned_edge=RIGHT))


@frames_comparison
def test_fixed_input_network(scene: Scene) -> None:
    """A network whose input takes 12 numbers, with a vector of 16 run past its socket."""
    network = FixedInputNetwork(12, "network")
    longer = VGroup(*(s.copy() for s in network.get_slots()[:4])).arrange(RIGHT, buff=0)
    scene.add(network, longer.next_to(network.get_slots(), RIGHT, buff=0.1))


def test_pixel_gate_catches_a_changed_grid(tmp_path: Path) -> None:
    """The golden grid does not match a grid whose weights moved."""
    changed = [[0.5, 0.5, 0.0], [0.125, 0.125, 0.75], [0.0, 0.0, 1.0]]
    with tempconfig(
        {"pixel_width": 854, "pixel_height": 480, "media_dir": str(tmp_path), "dry_run": True}
    ):
        scene = Scene()
        scene.add(_grid(changed))
        scene.render()
        frame = scene.renderer.get_frame()
    tester = _frames_testers._FramesTester(CONTROL / "attention_grid.npz")
    with pytest.raises(AssertionError), tester.testing():
        tester.check_frame(-1, frame)
    assert np.load(CONTROL / "attention_grid.npz")["frame_data"].shape[-3:] == frame.shape


def test_fast_copy_is_a_deep_copy() -> None:
    import numpy as np
    from manim import Square, VGroup

    from scenes.kit import style
    from scenes.patches import fastcopy

    fastcopy.install()
    word = style.text("蘋果")
    square = Square()
    group = VGroup(word, square, VGroup(square))  # one square in two places
    group.named = group.also_named = {"word": word, "sizes": [1.0]}  # one dict, two names
    twin = group.copy()
    assert twin[1] is twin[2][0] and twin[1] is not square  # sharing kept, nothing shared out
    assert twin.named is twin.also_named and twin.named is not group.named
    assert twin.named["word"] is twin[0] and twin.named["sizes"] is not group.named["sizes"]
    assert all(
        np.array_equal(a.points, b.points)
        for a, b in zip(
            group.family_members_with_points(), twin.family_members_with_points(), strict=True
        )
    )
    twin[1].shift([1, 0, 0])
    twin[0][0].points[0] += 5
    assert np.allclose(square.get_center(), 0) and not np.allclose(
        word[0].points, twin[0][0].points
    )
    twin[0].set_color(style.QUERY)
    assert word.get_color() != twin[0].get_color()


def test_the_components_page_is_current() -> None:
    """docs/components.md documents every component with its example's picture."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "scripts/component_docs.py", "--check"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_long_names_stay_inside_the_office() -> None:
    from scenes.kit.diagrams import OfficeRoom

    names = ["會計小陳", "Prof. Maximiliane Oberhauser-Lindqvist", "阿德"]
    room = OfficeRoom(names, [[2.0, 0.4], [-1.6, 1.2], [0.0, -1.5]], [5, 1, 3], "{n} days")
    walls = room.room
    for person in room.people:
        for label in person[1:]:
            assert walls.get_left()[0] <= label.get_left()[0]
            assert label.get_right()[0] <= walls.get_right()[0]


KIT = Path(__file__).resolve().parent.parent / "scenes" / "kit"
# the kit's modules of shared pictures
PICTURES = ("labels", "maps", "vectors", "diagrams", "devices", "sums", "plots")


@pytest.mark.parametrize("name", PICTURES)
def test_each_module_of_pictures_names_what_it_holds(name: str) -> None:
    """A module's docstring names every public class and function it defines, and no other."""
    module = importlib.import_module(f"scenes.kit.{name}")
    named = set(re.findall(r":(?:class|func):`(\w+)`", module.__doc__ or ""))
    held = {
        key
        for key, item in vars(module).items()
        if not key.startswith("_")
        and (inspect.isclass(item) or inspect.isfunction(item))
        and item.__module__ == module.__name__
    }
    assert held and named == held


def test_no_module_of_the_kit_is_over_600_lines() -> None:
    lengths = {f.name: len(f.read_text(encoding="utf-8").splitlines()) for f in KIT.glob("*.py")}
    assert len(lengths) > 5 and max(lengths.values()) <= 600, lengths
