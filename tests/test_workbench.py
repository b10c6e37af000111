"""The workbench (``cthulhu-sim serve``) in process: every page of every game, a run that
gives the figures of ``run --json``, comparisons, sweeps, traces, the queue and cancelling,
bad input answered with the CLI's line and a 4xx, and nothing read or written outside the
results folder.  The hex game (the quickest to compile) and small game counts."""

from __future__ import annotations

import json
import random
import shutil
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from cli_support import invoke  # noqa: E402
from workbench_support import client, errors, play, submit, text_of, wait  # noqa: E402

from experiments.workbench.jobs import DONE, RUNNING  # noqa: E402
from simcore.registry import game_names, get_game  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    with client(root) as c:
        yield c, root


def cli_error(*args) -> str:
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    line = r.stderr.strip().splitlines()[0]
    assert line.startswith("error: ")
    return line[len("error: "):]


# ---- pages ----------------------------------------------------------------------------
def test_games_page_lists_every_registered_game(bench):
    c, _ = bench
    r = c.get("/games")
    assert r.status_code == 200
    for name in game_names():
        assert f'data-game="{name}"' in r.text
        assert get_game(name).title.split(" (")[0] in r.text
        assert f"{len(get_game(name).default_rules().entries)} values" in r.text
    assert "built-in method" not in r.text


@pytest.mark.parametrize("game", game_names())
def test_game_page_shows_every_setting_and_strategy(bench, game):
    from strategies import registry

    c, _ = bench
    r = c.get(f"/games/{game}")
    assert r.status_code == 200
    rules = get_game(game).default_rules()
    for key in rules.entries:
        assert f'name="set:{key}"' in r.text, key
    assert f"{len(rules.entries)} values" in r.text and "built-in method" not in r.text
    assert all(f'class="source {s}"' in r.text for s, n in rules.source_counts().items() if n)
    for name, spec in registry.specs(game).items():
        assert f'<option value="{name}"' in r.text
        for p in spec.params:
            assert f'name="param:{name}:{p}"' in r.text
    for page in ("/results", "/jobs", "/"):
        assert c.get(page).status_code == 200


def test_unknown_game_and_job_are_404(bench):
    c, _ = bench
    assert c.get("/games/nope").status_code == 404
    assert "known games" in c.get("/games/nope").text
    assert c.get("/jobs/999999").status_code == 404
    assert c.post("/games/hex/explode", data={}).status_code == 404


# ---- a run ----------------------------------------------------------------------------
def test_run_gives_the_figures_of_run_json_and_saves_a_run_folder(bench):
    c, root = bench
    page = play(c, "hex", "run", {"games": "300", "seed": "7", "set:max_turns": "100",
                                  "save_as": "first-run"}).text
    r = invoke("run", "hex", "--games", 300, "--seed", 7, "--set", "max_turns=100", "--json",
               "-q")
    assert r.exit_code == 0, r.output
    cli = json.loads(r.stdout)
    saved = json.loads((root / "first-run" / "summary.json").read_text())
    for d in (cli, saved):
        d.pop("playouts_per_s")
    assert saved == cli
    from experiments.stats import rate_text

    rate = rate_text(cli["seat_win_rates"][0]["rate"], *cli["seat_win_rates"][0]["ci95"])
    assert text_of(page, "win-rate") == rate  # written as the CLI writes it
    # the CLI's own table, and the CLI reads the folder (list, pool)
    assert "seat against seat" in text_of(page, "cli-text")
    listed = json.loads(invoke("list", str(root), "--json").stdout)
    assert any(row["kind"] == "run" and row["path"].endswith("first-run") for row in listed)
    assert c.get("/jobs/1/chart.png").headers["content-type"] == "image/png"
    folder = c.get("/results/first-run")
    assert folder.status_code == 200 and text_of(folder.text, "win-rate") == rate
    assert c.get("/run-chart/first-run").content[:4] == b"\x89PNG"
    assert c.get("/results/first-run/report.md").status_code == 200


def test_per_seat_strategies_play_as_the_table_strategy(bench):
    c, root = bench
    play(c, "hex", "run", {"games": "200", "seat:0": "random", "seat:1": "heuristic",
                           "save_as": "seats"})
    r = invoke("run", "hex", "--games", 200, "--strategy", "table", "--set",
               "strategy.seat_0=random", "--set", "strategy.seat_1=heuristic", "--json", "-q")
    cli = json.loads(r.stdout)
    saved = json.loads((root / "seats" / "summary.json").read_text())
    assert saved["seat_win_rates"] == cli["seat_win_rates"]


# ---- player files (train --out) and typed entrants ---------------------------------------
TRAINED = Path(__file__).resolve().parent.parent / "reports" / "players" / \
    "hex-heuristic-trained.toml"


def test_player_files_of_the_game_are_offered_and_play_as_the_cli_plays_them(bench):
    c, root = bench
    (root / "players").mkdir(exist_ok=True)
    mine = root / "players" / "mine.toml"
    shutil.copy(TRAINED, mine)
    other = TRAINED.read_text().replace('game = "hex"', 'game = "wakeup"')
    (root / "players" / "other-game.toml").write_text(other)
    page = c.get("/games/hex").text
    assert '<option value="players/mine.toml"' in page  # the results folder's
    assert '<option value="project:reports/players/hex-heuristic-trained.toml"' in page
    assert "other-game.toml" not in page  # a player of another game is not offered
    assert "players/mine.toml" not in c.get("/games/wakeup").text
    play(c, "hex", "run", {"games": "200", "seed": "3", "strategy": "players/mine.toml",
                           "save_as": "trained-run"})
    r = invoke("run", "hex", "--games", 200, "--seed", 3, "--strategy", str(mine), "--json",
               "-q")
    assert r.exit_code == 0, r.output
    cli = json.loads(r.stdout)
    saved = json.loads((root / "trained-run" / "summary.json").read_text())
    assert saved["seat_win_rates"] == cli["seat_win_rates"]
    assert saved["strategy"] == cli["strategy"] == str(mine)
    # typed as an entrant, the project's file plays too
    play(c, "hex", "run", {"games": "200", "seed": "3", "save_as": "trained-entrant",
                           "entrant": "project:reports/players/hex-heuristic-trained.toml"})
    r = invoke("run", "hex", "--games", 200, "--seed", 3, "--strategy", str(TRAINED),
               "--json", "-q")
    saved = json.loads((root / "trained-entrant" / "summary.json").read_text())
    assert saved["seat_win_rates"] == json.loads(r.stdout)["seat_win_rates"]


def test_a_player_file_takes_a_seat_with_that_seats_parameters(bench):
    from strategies.playerfile import load

    c, root = bench
    play(c, "hex", "run", {"games": "200", "seat:0": "heuristic",
                           "seat:1": "project:reports/players/hex-heuristic-trained.toml",
                           "save_as": "trained-seat"})
    args = ["--set", "strategy.seat_0=heuristic", "--set", "strategy.seat_1=heuristic"]
    for k, v in load(TRAINED).seat_parameters(1).items():
        args += ["--set", f"strategy.seat_1.{k}={v!r}"]
    r = invoke("run", "hex", "--games", 200, "--strategy", "table", *args, "--json", "-q")
    assert r.exit_code == 0, r.output
    saved = json.loads((root / "trained-seat" / "summary.json").read_text())
    assert saved["seat_win_rates"] == json.loads(r.stdout)["seat_win_rates"]


def test_a_typed_entrant_plays_as_its_parameters_set(bench):
    c, root = bench
    play(c, "hex", "run", {"games": "200", "entrant": "Heuristic{aggression=0.9}",
                           "save_as": "entrant-run"})
    r = invoke("run", "hex", "--games", 200, "--strategy", "heuristic", "--set",
               "strategy.aggression=0.9", "--json", "-q")
    saved = json.loads((root / "entrant-run" / "summary.json").read_text())
    assert saved["seat_win_rates"] == json.loads(r.stdout)["seat_win_rates"]


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"strategy": "players/other-game.toml"}, "strategy", "is a player of wakeup, not of hex"),
    ({"strategy": "players/broken.toml"}, "strategy", "is not valid TOML"),
    ({"strategy": "players/missing.toml"}, "strategy", "no player file of hex by that name"),
    ({"strategy": "../../etc/x.toml"}, "strategy", "not a name inside the results folder"),
    ({"strategy": "/etc/x.toml"}, "strategy", "not a name inside the results folder"),
    ({"strategy": "project:reports/players/../../x.toml"}, "strategy", "no player file"),
    ({"entrant": "players/other-game.toml"}, "entrant", "is a player of wakeup, not of hex"),
    ({"seat:0": "players/broken.toml"}, "seat:0", "is not valid TOML"),
    ({"entrant": "mcts:lots"}, "entrant", "is not a whole number of search iterations"),
    ({"entrant": "heuristic{nope=1}"}, "entrant", "heuristic has no parameter 'nope'"),
    ({"entrant": "heuristic:100"}, "entrant", "does not search"),
    ({"entrant": "heuristic{aggression=0.9}", "param:heuristic:aggression": "0.2"}, "entrant",
     "aggression is given twice"),
])
def test_a_bad_player_file_or_entrant_is_one_line_and_runs_nothing(bench, data, field, words):
    c, root = bench
    (root / "players").mkdir(exist_ok=True)
    (root / "players" / "other-game.toml").write_text(
        TRAINED.read_text().replace('game = "hex"', 'game = "wakeup"'))
    (root / "players" / "broken.toml").write_text('format = "cthulhu-sim player 1"\ngame = [')
    before = sorted(p.name for p in root.iterdir())
    jobs = len(c.app.state.wb.queue.jobs)
    r = submit(c, "hex", "run", {"games": "100", **data})
    assert r.status_code == 400, r.text[:300]
    got = errors(r.text)
    assert field in got, (got, r.text[:500])
    assert words in got[field] and "\n" not in got[field]
    assert "Traceback" not in r.text
    assert sorted(p.name for p in root.iterdir()) == before  # nothing written
    assert len(c.app.state.wb.queue.jobs) == jobs  # nothing run


def test_precision_target_plays_a_one_cell_sweep(bench):
    c, root = bench
    page = play(c, "hex", "run", {"games": "1000", "precision": "10", "save_as": "precise"})
    assert "within ±10 points" in page.text
    from experiments.running.sweep import load_sweep

    assert len(load_sweep(root / "precise").results) == 1


# ---- compare, sweep, one game -----------------------------------------------------------
def test_compare_with_the_defaults_is_paired_and_saved(bench):
    c, root = bench
    page = play(c, "hex", "compare", {"games": "300", "set:max_turns": "40",
                                      "save_as": "cmp"}).text
    data = json.loads((root / "cmp" / "compare.json").read_text())
    pair = data["pairs"][0]
    assert pair["n"] == 300 and pair["a"] == "defaults"
    assert text_of(page, "diff") == f"{100 * pair['diff']:+.2f}"
    assert "paired differences" in text_of(page, "cli-text")
    report = c.get("/results/cmp/report.html")
    assert report.status_code == 200 and "Paired differences" in report.text


def test_compare_with_a_saved_run_replays_its_playouts(bench):
    c, root = bench
    play(c, "hex", "run", {"games": "200", "seed": "3", "save_as": "base3"})
    page = play(c, "hex", "compare", {"games": "50", "set:max_turns": "60",
                                      "compare_with": "base3", "save_as": "cmp3"})
    data = json.loads((root / "cmp3" / "compare.json").read_text())
    assert data["seed"] == 3 and data["games"] == 200 and data["pairs"][0]["n"] == 200
    assert "base3" in page.text


def test_sweep_with_a_target_gives_the_curve_and_tunes_answer(bench):
    c, root = bench
    page = play(c, "hex", "sweep", {"games": "200", "sweep_key": "max_turns",
                                    "sweep_values": "20:60:20", "target": "0.4",
                                    "save_as": "sw"}).text
    assert "chart-winrate.png" in page
    assert "tuning max_turns" in text_of(page, "tune-text")
    listed = {row["path"].rsplit("/", 1)[-1]: row["kind"]
              for row in json.loads(invoke("list", str(root), "--json").stdout)}
    assert listed["sw"] == "sweep" and listed["sw-tune"] == "tune"
    assert invoke("report", str(root / "sw")).exit_code == 0


def test_one_game_is_the_cli_trace(bench):
    c, _ = bench
    page = play(c, "hex", "trace", {"seed": "5", "index": "2"}).text
    r = invoke("trace", "hex", "--seed", 5, "--index", 2)
    assert r.exit_code == 0
    assert text_of(page, "cli-text").strip() == r.stdout.strip()
    assert "Final board:" in page


# ---- bad input: the CLI's line, beside the field, and a 4xx ------------------------------
@pytest.mark.parametrize(("data", "field", "cli_args"), [
    ({"games": "0"}, "games", ["--games", "0"]),
    ({"games": "many"}, "games", ["--games", "many"]),
    ({"games": "2000000000"}, "games", ["--games", "2000000000"]),
    ({"seed": "-1"}, "seed", ["--seed", "-1"]),
    ({"set:max_turns": "-3"}, "set:max_turns", ["--set", "max_turns=-3"]),
    ({"set:max_turns": "lots"}, "set:max_turns", ["--set", "max_turns=lots"]),
    ({"set:first_side": "ugly"}, "set:first_side", ["--set", "first_side=ugly"]),
    ({"set:crt.defence_1": "[1,2,3,4,5,6,7]"}, "set:crt.defence_1",
     ["--set", "crt.defence_1=[1,2,3,4,5,6,7]"]),
    ({"strategy": "nope"}, "strategy", ["--strategy", "nope"]),
    ({"param:heuristic:" + next(iter(__import__("strategies").registry.specs("hex")
                                     ["heuristic"].params)): "1e9"}, "strategy",
     ["--set", "strategy." + next(iter(__import__("strategies").registry.specs("hex")
                                       ["heuristic"].params)) + "=1e9"]),
])
def test_bad_input_gets_the_cli_message_beside_the_field(bench, data, field, cli_args):
    c, _ = bench
    r = submit(c, "hex", "run", {"games": "100", **data})
    assert r.status_code == 400
    got = errors(r.text)
    assert field in got, (got, r.text[:500])
    assert got[field] == cli_error("run", "hex", "--games", "100", *cli_args)
    assert "Traceback" not in r.text


@pytest.mark.parametrize(("action", "data", "field"), [
    ("trace", {"index": "-1"}, "index"),
    ("run", {"precision": "abc"}, "precision"),
    ("run", {"precision": "0"}, "precision"),
    ("run", {"save_as": "../escape"}, "save_as"),
    ("run", {"save_as": "/tmp/escape"}, "save_as"),
    ("run", {"save_as": "a/b"}, "save_as"),
    ("compare", {}, "_form"),
    ("compare", {"set:max_turns": "50", "compare_with": "../../etc"}, "compare_with"),
    ("compare", {"set:max_turns": "50", "compare_with": "/etc"}, "compare_with"),
    ("compare", {"set:max_turns": "50", "compare_with": "missing"}, "compare_with"),
    ("sweep", {"sweep_key": "", "sweep_values": "1,2"}, "sweep_key"),
    ("sweep", {"sweep_key": "max_turns", "sweep_values": ""}, "sweep_values"),
    ("sweep", {"sweep_key": "max_turns", "sweep_values": "5"}, "sweep_values"),
    ("sweep", {"sweep_key": "max_turns", "sweep_values": "1:100000:1"}, "sweep_values"),
    ("sweep", {"sweep_key": "max_turns", "sweep_values": "0,10"}, "sweep_values"),
    ("sweep", {"sweep_key": "max_turns", "sweep_values": "10:30", "target": "lots"},
     "target"),
])
def test_bad_requests_are_refused_with_a_message(bench, action, data, field):
    c, root = bench
    before = sorted(p.name for p in root.iterdir())
    r = submit(c, "hex", action, {"games": "100", **data})
    assert r.status_code == 400, r.text[:300]
    assert field in errors(r.text) or (field == "_form" and 'data-error-for="_form"' in r.text)
    assert sorted(p.name for p in root.iterdir()) == before  # nothing written


def test_garbage_never_gets_a_server_error(bench):
    c, _ = bench
    rng = random.Random(5)
    junk = ["", " ", "-", "1e999", "nan", "[", "{}", "\x00", "é" * 300, "../..", "9" * 40,
            "true", "0x10", "'", "\"", "<script>", "../../x.toml", "project:x.toml",
            "mcts:{", "heuristic{aggression=9}"]
    fields = ["games", "seed", "index", "precision", "strategy", "seat:0", "seat:1",
              "set:max_turns", "set:first_side", "set:crt.defence_1", "sweep_key",
              "sweep_values", "target", "metric", "compare_with", "save_as",
              "param:heuristic:x", "set:nope", "entrant"]
    for _ in range(60):
        data = {f: rng.choice(junk) for f in rng.sample(fields, 4)}
        data.setdefault("games", "50")
        action = rng.choice(["run", "compare", "sweep", "trace"])
        r = submit(c, "hex", action, data)
        assert r.status_code in (303, 400), (action, data, r.status_code, r.text[:300])
        assert "Traceback" not in r.text
        if r.status_code == 303:
            c.post(r.headers["location"] + "/cancel")


# ---- the results folder only ------------------------------------------------------------
@pytest.mark.parametrize("url", [
    "/results/%2e%2e", "/results/%2e%2e/%2e%2e/etc/passwd", "/results/%2Fetc%2Fpasswd",
    "/results/~root", "/run-chart/%2e%2e", "/run-chart/%2Fetc", "/results/a/%2e%2e/%2e%2e",
    "/results/.hidden", "/results/C:%5Cwindows",
])
def test_path_tricks_are_refused(bench, url):
    c, _ = bench
    r = c.get(url)
    assert 400 <= r.status_code < 500, (url, r.status_code)
    assert "root:" not in r.text


def test_a_link_out_of_the_results_folder_is_refused(bench, tmp_path):
    c, root = bench
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "manifest.json").write_text('{"tool": "cthulhu-sim", "kind": "run"}')
    (outside / "report.md").write_text("secret")
    (root / "sneaky").symlink_to(outside)
    try:
        for url in ("/results/sneaky", "/results/sneaky/report.md", "/run-chart/sneaky"):
            r = c.get(url)
            assert r.status_code == 400 and "secret" not in r.text.replace("sneaky", "")
    finally:
        (root / "sneaky").unlink()


def test_files_that_are_not_results_are_not_served(bench):
    c, root = bench
    (root / "notes.txt").write_text("mine")
    (root / "stray").mkdir(exist_ok=True)
    (root / "stray" / "x.md").write_text("mine")
    assert c.get("/results/notes.txt").status_code == 403
    assert c.get("/results/stray/x.md").status_code == 403
    assert c.get("/results/stray").status_code == 404


def test_a_form_from_another_site_is_refused(bench):
    c, root = bench
    before = sorted(p.name for p in root.iterdir())
    r = c.post("/games/hex/run", data={"games": "10"}, headers={"origin": "http://evil.example"},
               follow_redirects=False)
    assert r.status_code == 403
    assert sorted(p.name for p in root.iterdir()) == before
    own = c.post("/games/hex/run", data={"games": "0"}, headers={"origin": "http://testserver"})
    assert own.status_code == 400  # its own pages post as before (here: refused for games 0)


# ---- the queue and cancelling -----------------------------------------------------------
def test_jobs_queue_one_at_a_time_and_say_so(bench):
    c, _ = bench
    wb = c.app.state.wb
    gate = threading.Event()
    blocker = wb.queue.submit("run", "hex", "blocker", lambda job: gate.wait(60))
    try:
        r = submit(c, "hex", "run", {"games": "100"})
        assert r.status_code == 303
        url = r.headers["location"]
        page = c.get(url).text
        assert 'data-state="queued"' in page and "1 job ahead" in text_of(page, "queued")
        assert "One heavy job runs at a time" in page
    finally:
        gate.set()
    assert 'data-state="done"' in wait(c, url).text
    assert blocker.state == DONE


def test_cancel_stops_a_running_run_and_keeps_nothing(bench):
    c, root = bench
    r = submit(c, "hex", "run", {"games": "1000000", "save_as": "cancelled-run"})
    url = r.headers["location"]
    job = c.app.state.wb.queue.get(url.rsplit("/", 1)[1])
    for _ in range(6000):
        if job.state == RUNNING and job.stage == "playing":
            break
        threading.Event().wait(0.01)
    assert c.post(url + "/cancel", follow_redirects=False).status_code == 303
    page = wait(c, url, timeout=120).text
    assert 'data-state="cancelled"' in page
    assert job.done < 1_000_000
    assert not (root / "cancelled-run").exists()
