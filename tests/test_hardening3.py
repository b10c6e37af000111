"""A full disk leaves nothing half-written (issue 30, last part): the commands that keep
their progress (tune, sensitivity, uncertainty, skill, train, tournament) write their final
files (results, charts, report, the finished manifest) through
:func:`experiments.storage.outdir.staged`, as ``report DIR`` redraws a report; a disk that
fills while they are written leaves the folder as it was (the plays kept for ``--resume``),
one ``error:`` line naming the file the user asked for (not the staging folder), and the
same command with ``--overwrite`` works afterwards."""

from __future__ import annotations

import errno
import json

import pytest

from experiments.storage.outdir import STAGING
from tests.balance_support import toy_games  # noqa: F401  (a fixture)
from tests.cli_support import invoke

FULL = "No space left on device"


def _full_disk(mp, after=0):
    """Every write of a final file (one inside a staging folder) past the first ``after``
    fails as on a full disk; progress (plays, checkpoints) is still written."""
    from experiments.reporting import charts
    from experiments.storage import store

    real = store.atomic_write
    count = [0]

    def atomic_write(path, write):
        if STAGING in str(path):
            count[0] += 1
            if count[0] > after:
                raise OSError(errno.ENOSPC, FULL, str(path))
        return real(path, write)

    mp.setattr(store, "atomic_write", atomic_write)
    mp.setattr(charts, "atomic_write", atomic_write)


def _snapshot(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


# (the command, the first final file it writes, the files it keeps as progress)
BALANCE = {
    "tune": (["tune", "coin", "--target", "0.3", "--vary", "bias", "--games", "20",
              "--max-games", "40", "--confirm", "20", "-q", "--out", "c"],
             "rules-tuned.toml", {"manifest.json", "plays"}),
    "sensitivity": (["sensitivity", "coin", "--keys", "bias,nudge", "--games", "20", "-q",
                     "--out", "c"], "sensitivity.json", {"manifest.json", "plays"}),
    "uncertainty": (["uncertainty", "duel", "--samples", "3", "--games", "16", "-q", "--out",
                     "c"], "uncertainty.json", {"manifest.json", "plays"}),
    "skill": (["skill", "hex", "--levels", "random", "--games", "4", "-q", "--out", "c"],
              "skill.json", {"manifest.json", "plays", "timing.json"}),
    "train": (["train", "hex", "--budget", "40", "--trials", "2", "--rounds", "1", "-q",
               "--out", "c"],
              "train.json", {"manifest.json", "plays"}),
}


@pytest.mark.usefixtures("toy_games")
@pytest.mark.parametrize("command", list(BALANCE))
def test_a_full_disk_leaves_a_resumable_folder_whole(command, tmp_path, monkeypatch):
    # issue 30: cthulhu-sim tune coin ... --out c on a disk that fills as the results are
    # written: "error: cannot write c/rules-tuned.toml: No space left on device" (the file
    # under c, not c/.tmp-staging-.../), c holding only its plays and unfinished manifest
    # (none of the results), and --overwrite (or --resume) finishes it
    monkeypatch.chdir(tmp_path)
    args, first, progress = BALANCE[command]
    with pytest.MonkeyPatch.context() as mp:
        _full_disk(mp)
        r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == f"error: cannot write c/{first}: {FULL}", r.stderr
    out = tmp_path / "c"
    assert {p.name for p in out.iterdir()} == progress  # no result, no staging folder
    assert json.loads((out / "manifest.json").read_text())["complete"] is False
    r = invoke(*args, "--overwrite")
    assert r.exit_code == 0, r.output
    whole = _snapshot(out)
    assert json.loads(whole["manifest.json"])["complete"] is True
    assert first in whole and not any(STAGING in p for p in whole)
    # a second full disk, on --resume of the finished folder: its results stay whole
    with pytest.MonkeyPatch.context() as mp:
        _full_disk(mp, 1)
        r = invoke(*args, "--resume")
    assert r.exit_code == 2 and FULL in r.stderr, r.output
    again = _snapshot(out)
    assert {p: b for p, b in again.items() if p != "manifest.json"} == {
        p: b for p, b in whole.items() if p != "manifest.json"}


def test_a_full_disk_leaves_a_tournament_s_tables_and_no_half_report(tmp_path, monkeypatch):
    # issue 30: cthulhu-sim tournament hex --strategies random,heuristic --games 2 --out c
    # on a disk that fills as the ratings and report are written: one error line naming
    # c/tournament.json, the tables played and kept, no report; --overwrite works after,
    # and a full disk while `report c` redraws it leaves the tournament's files as they were
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "hex", "--strategies", "random,heuristic", "--games", "2", "-q",
            "--out", "c"]
    with pytest.MonkeyPatch.context() as mp:
        _full_disk(mp)
        r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == f"error: cannot write c/tournament.json: {FULL}", r.stderr
    out = tmp_path / "c"
    names = {p.name for p in out.iterdir()}
    assert not names & {"tournament.json", "report.md", "report.html", "chart-ratings.png"}
    assert not any(n.startswith(STAGING) for n in names)
    assert "tournament" not in json.loads((out / "manifest.json").read_text())
    r = invoke(*args, "--overwrite")
    assert r.exit_code == 0, r.output
    whole = _snapshot(out)
    with pytest.MonkeyPatch.context() as mp:
        _full_disk(mp, 2)
        r = invoke("report", "c")
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == f"error: cannot write c/chart-wins.png: {FULL}", r.stderr
    assert _snapshot(out) == whole
    r = invoke("report", "c")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("kind", ["sweep", "ladder"])
def test_a_full_disk_while_a_report_is_redrawn_leaves_it_whole(kind, tmp_path, monkeypatch):
    # issue 30: cthulhu-sim report c (a sweep's or a ladder's) on a disk that fills as the
    # charts are drawn: "error: cannot write c/...: No space left on device" and c byte for
    # byte as it was
    monkeypatch.chdir(tmp_path)
    if kind == "ladder":
        r = invoke("ladder", "hex", "--games", "4", "--budgets", "2", "-q", "--out", "c")
    else:
        (tmp_path / "s.toml").write_text('game = "hex"\nstrategy = "table"\n[axes]\n'
                                         '"strategy.seat_1" = ["rusher", "brawler"]\n'
                                         '[games]\nper_cell = 4\n')
        r = invoke("sweep", "s.toml", "--out", "c", "-q")
    assert r.exit_code == 0, r.output
    out = tmp_path / "c"
    whole = _snapshot(out)
    with pytest.MonkeyPatch.context() as mp:
        _full_disk(mp, 1)
        r = invoke("report", "c")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: cannot write c/") and FULL in r.stderr, r.stderr
    assert STAGING not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert _snapshot(out) == whole
    r = invoke("report", "c")
    assert r.exit_code == 0, r.output


def test_a_failed_write_names_the_file_not_its_staging_folder(capsys):
    # issue 30: a write inside out/.tmp-staging-XXXX/ that fails is reported as the file
    # under out the user asked for
    import typer

    from experiments.cli.common import cannot_write
    from experiments.storage.outdir import destination

    exc = OSError(errno.ENOSPC, FULL, f"out/{STAGING}ab12/plays/report.md")
    with pytest.raises(typer.Exit):
        cannot_write(exc, "out")
    assert capsys.readouterr().err == f"error: cannot write out/plays/report.md: {FULL}\n"
    assert str(destination(f"/a/b/{STAGING}x/c.json")) == "/a/b/c.json"
    assert str(destination("/a/b/c.json")) == "/a/b/c.json"
    with pytest.raises(typer.Exit):  # no file named: the folder given
        cannot_write(OSError(errno.ENOSPC, FULL), "out/")
    assert capsys.readouterr().err == f"error: cannot write out/: {FULL}\n"
