"""Every heteronym of the zh-TW narration was checked: covered by a [pronounce] entry where it
stands, or listed in [readings] reviewed (voice/readings.py)."""

from __future__ import annotations

from syllabus.locale import locale_table
from voice.readings import covered, is_heteronym, narration, unreviewed


def _zh_tw() -> tuple[list[str], dict, str]:
    table = locale_table("zh-TW")
    return narration(table), table["pronounce"], table.get("readings", {}).get("reviewed", "")


def test_every_heteronym_of_the_narration_was_reviewed() -> None:
    lines, pronounce, reviewed = _zh_tw()
    assert isinstance(reviewed, str), "[readings] reviewed must be text"
    found = unreviewed(lines, pronounce, reviewed)
    assert not found, (
        "heteronyms no [pronounce] entry covers and [readings] reviewed does not list "
        "(check what the G2P says with voice.readings.g2p_readings):\n"
        + "\n".join(f"{char}: {line.strip()}" for char, line in found)
    )


def test_an_unreviewed_heteronym_is_reported() -> None:
    _, pronounce, reviewed = _zh_tw()
    line = "這裡再調一次"  # 調 is reviewed nowhere, and no entry takes this one
    assert is_heteronym("調") and "調" not in reviewed
    assert unreviewed([line], pronounce, reviewed) == [("調", line)]
    # a [pronounce] entry takes it where it stands, re-spelled or spelled as itself
    assert unreviewed(["訓練調出來"], pronounce, reviewed) == []
    assert unreviewed([line], {**pronounce, "再調": "再條"}, reviewed) == []
    assert unreviewed([line], {**pronounce, "調一次": "調一次"}, reviewed) == []
    assert unreviewed([line], pronounce, reviewed + "調") == []
    assert unreviewed(["調"], {}, "") == [("調", "調")]
    assert unreviewed(["紅色"], {}, "色") == [("紅", "紅色")]  # 紅: hóng, gōng


def test_narration_takes_the_lines_a_voice_says() -> None:
    table = {
        "meta": {"name": "正體中文"},
        "pronounce": {"得": "的"},
        "colour_names": {"red": "紅"},
        "demo": {"title": "標題", "say": "看第 {row} 列。<share>它的{hue}色", "list": ["一", "二"]},
    }
    assert narration(table) == ["標題", "看第   列。 它的 色", "一", "二", "紅"]
    assert not any(line in narration(table) for line in ("正體中文", "的"))


def test_a_covered_place_is_the_one_pronounced_matches() -> None:
    # longest first: 得到 protects its 得 from the shorter entry; 學得會's 得 is re-spelled
    pronounce = {"得到": "得到", "得": "的"}
    assert covered("學得會，得到", pronounce) == "學\ue000會，\ue000\ue000"
    assert covered("MSE, MSEs", {"MSE": "M S E"}) == "\ue000\ue000\ue000, MSEs"
