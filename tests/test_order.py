"""Claims of order on a sweep (experiments/analysis/order.py, `cthulhu-sim order`): the checking
logic on a small made-up table, and the command on a real (small) sweep."""

import json

import pandas as pd
import pytest

from experiments.analysis import order as od
from tests.cli_support import invoke

AXES = {"goo": ["a", "b", "c"], "difficulty": ["normal", "hard"], "players": [1, 2]}


def table(rates: dict[tuple[str, str, int], tuple[float, float, float]]) -> pd.DataFrame:
    rows = [{"goo": g, "difficulty": d, "players": p, "win_rate": r, "win_lo": lo,
             "win_hi": hi, "games": 1000} for (g, d, p), (r, lo, hi) in rates.items()]
    return pd.DataFrame(rows)


def good_rates():
    """a > b > c by 10 points with +-2 intervals; hard 5 points below normal; 2 players as 1."""
    out = {}
    for i, g in enumerate(AXES["goo"]):
        for j, d in enumerate(AXES["difficulty"]):
            for p in AXES["players"]:
                r = 0.8 - 0.1 * i - 0.05 * j
                out[(g, d, p)] = (r, r - 0.02, r + 0.02)
    return out


CLAIMS = [od.Claim("goo", ("a", "b", "c")), od.Claim("difficulty", ("normal", "hard"))]


def test_an_order_that_holds_in_every_group():
    check = od.check_orders(table(good_rates()), AXES, CLAIMS)
    assert check.holds and not check.failures()
    # goo: 2 steps in each of 2 x 2 groups; difficulty: 1 step in each of 3 x 2 groups
    assert len(check.of(CLAIMS[0])) == 8 and len(check.of(CLAIMS[1])) == 6
    step = check.of(CLAIMS[1])[0]
    assert step.gap == pytest.approx(0.05 - 0.04)
    assert od.format_check(check).splitlines()[-1] == "every order holds"


def test_overlapping_intervals_fail_though_the_rates_are_in_order():
    rates = good_rates()
    rates[("b", "hard", 2)] = (0.58, 0.545, 0.615)  # c hard 2 is 0.55 +-0.02: 0.545 < 0.57
    check = od.check_orders(table(rates), AXES, CLAIMS)
    bad = check.failures()
    assert not check.holds and len(bad) == 1
    p = bad[0]
    assert (p.upper, p.lower, dict(p.group)) == ("b", "c", {"difficulty": "hard", "players": 2})
    assert not p.wrong_way and p.gap == pytest.approx(0.545 - 0.57)
    text = od.format_check(check)
    assert "intervals overlap by 2.50 pts" in text and "difficulty hard, players 2" in text
    assert text.splitlines()[-1] == "1 of 14 steps fail"


def test_a_step_the_wrong_way_round_is_named_so():
    rates = good_rates()
    rates[("a", "hard", 1)] = (0.9, 0.88, 0.92)  # hard above normal (0.8)
    check = od.check_orders(table(rates), AXES, CLAIMS)
    bad = check.failures()
    assert [(p.claim.axis, p.upper, p.lower) for p in bad] == [("difficulty", "normal", "hard")]
    assert bad[0].wrong_way
    assert "wrong way round, 10.00 pts the other way" in od.format_check(check)


def test_a_claim_on_part_of_an_axis_checks_only_its_neighbours():
    rates = good_rates()
    rates[("b", "normal", 1)] = (0.95, 0.93, 0.97)  # b above a: only a claim with a, b fails
    assert od.check_orders(table(rates), AXES, [od.Claim("goo", ("a", "c"))]).holds
    assert not od.check_orders(table(rates), AXES, [od.Claim("goo", ("a", "b"))]).holds


def test_switch_and_number_axes_match_as_a_results_table_holds_them():
    """results.parquet gives numpy booleans and integers; the axes hold Python ones."""
    import numpy as np

    axes = {"curses": [False, True], "players": [2, 4]}
    rows = [{"curses": np.bool_(c), "players": np.int64(p), "win_rate": r, "win_lo": r - 0.01,
             "win_hi": r + 0.01} for c in (False, True) for p, r in ((2, 0.5), (4, 0.3))]
    claim = od.parse_claim("players=2,4", axes)
    assert od.check_orders(pd.DataFrame(rows), axes, [claim]).holds
    assert "| false | 50.0 [49.0, 51.0] | 30.0 [29.0, 31.0] |" in od.cell_table(
        pd.DataFrame(rows), axes)


def test_a_missing_cell_is_named_not_skipped():
    rates = good_rates()
    del rates[("c", "hard", 2)]
    with pytest.raises(od.OrderError, match="no results for the cell goo=c, difficulty=hard, "
                                         "players=2"):
        od.check_orders(table(rates), AXES, CLAIMS)


def test_claims_are_parsed_against_the_axes():
    assert od.parse_claim("players=2,1", AXES) == od.Claim("players", (2, 1))
    assert od.parse_claim("goo = c, a", AXES) == od.Claim("goo", ("c", "a"))
    for text, says in [("goo", "write AXIS=V1,V2"), ("seats=a,b", "not an axis"),
                       ("goo=a", "at least two values"), ("goo=a,,b", "at least two"),
                       ("goo=a,z", "z not a value of goo"), ("goo=a,b,a", "named twice")]:
        with pytest.raises(od.OrderError, match=says):
            od.parse_claim(text, AXES)


def test_the_table_shows_every_cell():
    text = od.cell_table(table(good_rates()), AXES)
    lines = text.splitlines()
    assert lines[0] == "| goo | difficulty | players 1 | players 2 |"
    assert len(lines) == 2 + 6
    assert lines[2] == "| a | normal | 80.0 [78.0, 82.0] | 80.0 [78.0, 82.0] |"
    by_goo = od.cell_table(table(good_rates()), AXES, column_axis="goo").splitlines()
    assert by_goo[0] == "| difficulty | players | goo a | goo b | goo c |"


def test_metric_columns():
    with pytest.raises(od.OrderError, match="not a metric"):
        od.check_orders(table(good_rates()), AXES, CLAIMS, metric="wins")
    with pytest.raises(od.OrderError, match="no seat0_rate column"):
        od.check_orders(table(good_rates()), AXES, CLAIMS, metric="seat0")


@pytest.fixture(scope="module")
def sticky_sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("order")
    spec = root / "spec.toml"
    spec.write_text('game = "sticky"\nseed = 3\n[axes]\nplayers = [2, 4, 6]\n'
                    '[games]\nper_cell = 2000\n')
    out = root / "sweep"
    r = invoke("sweep", spec, "--out", out, "-q", "--no-report")
    assert r.exit_code == 0, r.output
    return out


def test_order_command_passes_and_fails(sticky_sweep):
    # seat 0 wins about 1/2, 1/4, 1/6 of 2, 4, 6-player games
    r = invoke("order", sticky_sweep, "--order", "players=2,4,6", "--metric", "seat0")
    assert r.exit_code == 0, r.output
    assert "| players 2 | players 4 | players 6 |" in r.stdout
    assert r.stdout.rstrip().endswith("every order holds")
    r = invoke("order", sticky_sweep, "--order", "players=6,2", "--metric", "seat0", "--json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["holds"] is False and out["steps"][0]["upper"] == 6


def test_order_command_bad_input_is_one_line(sticky_sweep, tmp_path):
    for args, says in [(["--order", "seats=1,2"], "not an axis of this sweep"),
                       (["--order", "players=2,4"], "no win_rate column"),
                       (["--order", "players=2,4", "--metric", "seat0", "--columns", "x"],
                        "--columns x: not an axis")]:
        r = invoke("order", sticky_sweep, *args)
        assert r.exit_code == 2 and says in r.stderr, r.output
        assert len(r.stderr.strip().splitlines()) == 1
    r = invoke("order", tmp_path / "nothing", "--order", "players=2,4")
    assert r.exit_code == 2 and "no such folder" in r.stderr


def test_the_bundled_calibration_spec_and_its_committed_report():
    """The Tiny Epic Cthulhu calibration (simcore/tec/NOTES.md, "Calibration"): the spec
    sweeps every Great Old One, difficulty and player count at a fixed number of games, and
    the report committed beside it passes the rulebook's orders (`make calibrate`)."""
    from pathlib import Path

    import experiments
    from experiments.running.spec import SweepSpec

    root = Path(experiments.__file__).parent.parent
    spec = SweepSpec.load(root / "experiments" / "specs" / "tec-calibration.toml")
    assert len(spec.cells()) == 48 and spec.per_cell == 32768
    r = invoke("order", root / "reports" / "tec-calibration",
               "--order", "goo=nyarlathotep,yog-sothoth,yig,cthulhu",
               "--order", "difficulty=normal,hard,madness")
    assert r.exit_code == 0, r.output
    assert "36 of 36 steps" in r.stdout and "32 of 32 steps" in r.stdout
