"""Golden playthroughs (tests/playthroughs/): each kept trace is what the game plays today."""

import difflib

import pytest

from tests.playthroughs import CASES, path, render


@pytest.mark.parametrize("name", list(CASES))
def test_playthrough_is_unchanged(name):
    kept = path(name)
    assert kept.exists(), f"{kept} is missing: run `make playthroughs`"
    want = kept.read_text(encoding="utf-8")
    got = render(name)
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "kept", "now", n=2))
        pytest.fail(f"{name} plays differently (after an intended change: `make playthroughs`"
                    f" and commit the diff):\n{diff[:4000]}")


def test_every_registered_game_has_a_playthrough():
    from simcore.registry import game_names

    covered = {game for game, *_ in CASES.values()}
    missing = [g for g in game_names() if g not in covered]
    assert not missing, f"no golden playthrough for {missing}: add one to CASES"
