"""simcore/sticky/loader.py: the engine's own limits hold whatever bounds a rules file declares.

A user may edit the rules file or widen a key's ``min``/``max`` in their own copy; a value the
jitted core cannot use (a negative seat, a die without faces, a chance above one) is still
refused with the file and key named.  Configuration only: no game is played.
"""

import json

import pytest

from simcore.registry import get_game
from simcore.rules_data import RulesError, limit_keys
from simcore.sticky.loader import ENGINE_LIMITS

GAME = get_game("sticky")
BUNDLED = GAME.rules_file.read_text(encoding="utf-8")


def user_file(tmp_path, key, fields):
    """The bundled text with ``key``'s entry rewritten to ``fields``, as a user rules file."""
    lines = BUNDLED.splitlines()
    section, _, leaf = key.rpartition(".")
    start = lines.index(f"[{section}]") + 1 if section else 0
    i = next(i for i in range(start, len(lines)) if lines[i].startswith(f"{leaf} = {{"))
    body = ", ".join(f"{name} = {json.dumps(v)}" for name, v in fields.items())
    lines[i] = f'{leaf} = {{ {body}, source = "assumed", note = "Test value." }}'
    path = tmp_path / "rules.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("key, fields, fragment", [
    ("first_player", {"value": -1, "min": -1, "max": 5}, "-1 is beyond what the simulator "
     "supports (0 to 7)"),
    ("components.creature_colours", {"value": 0, "min": 0, "max": 12}, "(at least 1)"),
    ("components.colour_die_faces", {"value": 0, "min": 0, "max": 20}, "(at least 1)"),
    ("turn.shake_drop_p", {"value": 1.5, "min": 0.0, "max": 2.0}, "(0.0 to 1.0)"),
    ("turn.rethrow_spread", {"value": 1.5, "min": 0.0, "max": 2.0}, "(0.0 to 1.0)"),
    ("profiles.expert.rethrow_s", {"value": 0.0, "min": 0.0, "max": 30.0}, "(at least 0.001)"),
    ("curse.singing.catch_p", {"value": 1.2, "min": 0.0, "max": 2.0}, "(0.0 to 1.0)"),
])
def test_values_beyond_the_engine_are_refused_whatever_the_file_allows(tmp_path, key, fields,
                                                                        fragment):
    path = user_file(tmp_path, key, fields)
    with pytest.raises(RulesError) as info:
        GAME.configure(None, None, path)
    msg = str(info.value)
    assert str(path) in msg and f"key '{key}'" in msg and fragment in msg


def test_within_the_limits_a_widened_file_loads(tmp_path):
    """Widening a bound is allowed: only the engine's own limits are enforced."""
    path = user_file(tmp_path, "turn.shake_s", {"value": 12.0, "min": 0.0, "max": 20.0})
    config = GAME.configure(None, None, path)
    assert config.rules["turn.shake_s"] == 12.0


def test_every_engine_limit_names_keys_that_exist():
    """Each ENGINE_LIMITS pattern matches a key of the bundled file, so a renamed key cannot
    silently drop its check."""
    rules = GAME.default_rules()
    for pattern, *_ in ENGINE_LIMITS:
        assert limit_keys(rules, pattern), pattern
