"""``plausible = [lo, hi]``: how far an assumed number could plausibly lie (simcore.rules_data)."""

from __future__ import annotations

import re

import pytest

from simcore.rules_data import RulesData, RulesError

HEAD = '[meta]\ngame = "toy"\n'


def load(tmp_path, body: str, reference: RulesData | None = None) -> RulesData:
    path = tmp_path / ("user.toml" if reference else "rules.toml")
    path.write_text(body + HEAD)
    return RulesData.load(path, reference=reference)


def test_a_given_range_is_kept_and_a_missing_one_is_one_step_each_way(tmp_path):
    rules = load(tmp_path, '''
a = { value = 4, min = 1, max = 12, plausible = [2, 6], source = "assumed", note = "n" }
b = { value = 4, min = 1, max = 12, source = "assumed", note = "n" }
c = { value = 1, min = 1, max = 12, source = "assumed", note = "at the bound" }
d = { value = 0.5, min = 0.0, max = 1.0, source = "assumed", note = "n" }
e = { value = [2, 3, 4], min = 0, max = 9, source = "assumed", note = "n" }
f = { value = [2, 3], max = 9, plausible = [[1, 2], [3, 5]], source = "public", note = "n" }
g = { value = "x", choices = ["x", "y"], source = "assumed", note = "n" }
''')
    e = rules.entries
    assert e["a"].plausible_range() == (2, 6)
    assert e["b"].plausible_range() == (3, 5)
    assert e["c"].plausible_range() == (1, 2)  # clipped to the minimum
    assert e["d"].plausible_range() == pytest.approx((0.4, 0.6))
    assert e["e"].plausible_range() == ([1, 2, 3], [3, 4, 5])
    assert e["f"].plausible_range() == ([1, 2], [3, 5])
    assert e["g"].plausible_range() is None


@pytest.mark.parametrize("field, why", [
    ('plausible = [5, 6]', "must lie within its plausible range"),
    ('plausible = [0, 6]', "below the minimum 1"),
    ('plausible = [2, 13]', "above the maximum 12"),
    ('plausible = [2]', "give [lowest, highest]"),
    ('plausible = [2.5, 6]', "two ints"),
    ('plausible = ["a", 6]', "two numbers"),
])
def test_a_bad_range_names_the_key_and_the_reason(tmp_path, field, why):
    with pytest.raises(RulesError, match=rf"key 'a': plausible .*{re.escape(why)}"):
        load(tmp_path, f'a = {{ value = 4, min = 1, max = 12, {field}, source = "assumed", '
                       'note = "n" }\n')


def test_a_rulebook_value_and_a_string_have_no_range(tmp_path):
    with pytest.raises(RulesError, match="rulebook value is given by the text"):
        load(tmp_path, 'a = { value = 4, plausible = [3, 5], source = "rulebook", note = "q" }\n')
    with pytest.raises(RulesError, match="only a number"):
        load(tmp_path, 'a = { value = "x", plausible = [3, 5], source = "assumed", note = "q" }\n')
    with pytest.raises(RulesError, match="two lists of 2 numbers"):
        load(tmp_path, 'a = { value = [1, 2], plausible = [0, 3], source = "assumed", '
                       'note = "q" }\n')


def test_a_users_file_inherits_the_bundled_range_where_it_fits(tmp_path):
    ref = load(tmp_path, 'a = { value = 4, min = 1, max = 12, plausible = [2, 6], '
                         'source = "assumed", note = "n" }\n')
    same = load(tmp_path, 'a = { value = 5, source = "assumed", note = "mine" }\n', ref)
    assert same.entries["a"].plausible_range() == (2, 6)
    moved = load(tmp_path, 'a = { value = 9, source = "assumed", note = "mine" }\n', ref)
    assert moved.entries["a"].plausible_range() == (8, 10)  # outside the bundled: one step


def test_every_bundled_plausible_range_fits_its_value():
    from simcore.registry import game_names, get_game

    for name in game_names():
        rules = get_game(name).default_rules()
        for entry in rules.entries.values():
            rng = entry.plausible_range()
            if rng is None:
                continue
            lo, hi = rng
            if entry.kind.startswith("list"):
                assert all(a <= v <= b for a, v, b in zip(lo, entry.value, hi, strict=True))
            else:
                assert lo <= entry.value <= hi, (name, entry.key)
