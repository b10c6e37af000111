"""Sweeps and saved results: `sweep` (every combination of a spec's axes), `report` (a
sweep's report rebuilt), `list` (the results under a folder) and `diff` (two sweeps cell by
cell)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from experiments.cli.common import (
    JsonOpt,
    QuietOpt,
    ThreadsOpt,
    cannot_write,
    check_dask_local,
    check_positive,
    fail,
    out_option,
    resume_option,
)
from experiments.running.limits import MAX_DASK_LOCAL
from experiments.storage.jsonout import json_text
from experiments.storage.outdir import OutDirError


def sweep(
    spec: Annotated[str, typer.Argument(
        metavar="SPEC", help="Sweep spec (TOML); see experiments/specs/.")],
    out: out_option("Output folder (default: reports/<spec name>).") = None,
    resume: resume_option("Finish the sweep begun in --out, skipping finished cells.") = False,
    overwrite: Annotated[bool, typer.Option(metavar="",
        help="Discard a previous sweep in --out (only files a sweep writes).")] = False,
    records: Annotated[bool, typer.Option(
        "--records", metavar="", help="Also keep every playout's full record (Parquet).")] = False,
    scheduler: Annotated[str | None, typer.Option(metavar="ADDRESS",
        help="Run on the Dask cluster at this scheduler address (tcp://HOST:8786).")] = None,
    dask_local: Annotated[int | None, typer.Option(
        "--dask-local", metavar="N", callback=check_dask_local,
            help=f"Run on a local Dask cluster of N worker processes (1 to {MAX_DASK_LOCAL}).")
    ] = None,
    chunk: Annotated[int, typer.Option(metavar="N", callback=check_positive,
        help="Playouts per task (results do not depend on it).")] = 8192,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    no_report: Annotated[bool, typer.Option("--no-report", metavar="",
        help="Skip the report.")] = False,
) -> None:
    """Run a sweep: every combination of the spec's axes, resumable, with a report."""
    from experiments.reporting.report import format_sweep
    from experiments.running.distributed import ClusterStartError
    from experiments.running.runner import TooManyGamesError, set_threads
    from experiments.running.spec import SpecError, SweepSpec
    from experiments.running.sweep import run_sweep

    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    if resume and overwrite:
        fail("give --resume or --overwrite, not both")
    try:
        parsed = SweepSpec.load(spec)
    except SpecError as exc:
        fail(str(exc))
    target = out or str(Path("reports") / Path(spec).stem)
    if threads:
        set_threads(threads, say=True)
    done = [0]
    try:
        result = run_sweep(parsed, target, resume=resume, overwrite=overwrite,
                           scheduler=scheduler, dask_local=dask_local, chunk=chunk,
                           threads=threads, records=True if records else None,
                           progress=not quiet, report=not no_report,
                           on_cell=lambda i: done.__setitem__(0, done[0] + 1))
    except (OutDirError, SpecError, ClusterStartError, TooManyGamesError) as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, target)
    except KeyboardInterrupt:
        typer.echo(f"\ninterrupted after {done[0]} more cell(s); every finished cell is saved. "
                   f"Run the same command with --resume to finish.", err=True)
        raise typer.Exit(130) from None
    typer.echo(format_sweep(result))


def report(
    folder: Annotated[str, typer.Argument(metavar="DIR",
        help="A sweep's, a tournament's or a ladder's output folder.")],
    csv: Annotated[bool, typer.Option("--csv", metavar="",
        help="Print the results (one row per cell) as CSV on stdout instead.")] = False,
    uncertainty: Annotated[str | None, typer.Option("--uncertainty", metavar="DIR|none",
        help=("The --out folder of `cthulhu-sim uncertainty` for the sweep's game: its band "
              "over the assumed values, and the verdict it allows, head the findings (the "
              "link is kept in the manifest for later reports; none drops it)."))] = None,
    skill: Annotated[str | None, typer.Option("--skill", metavar="DIR|none",
        help=("The --out folder of `cthulhu-sim skill` for the sweep's game: the figure at "
              "each level of play, and whether its claims hold under stronger players, head "
              "the findings (the link is kept in the manifest; none drops it)."))] = None,
) -> None:
    """Rebuild a sweep's report (Markdown, HTML, charts, results.csv) from its saved
    results, a tournament's from its tables, or a ladder's from its ladder.json."""
    import os

    from experiments.reporting.report import (
        SKILL_KEY,
        UNCERTAINTY_KEY,
        build_report,
        format_sweep,
        read_band,
        read_skill,
    )
    from experiments.running.sweep import load_sweep
    from experiments.storage.store import write_json

    kind = _report_kind(folder)
    if kind == "tournament" and not csv:
        if uncertainty is not None or skill is not None:
            fail(f"{'--uncertainty' if uncertainty is not None else '--skill'}: applies to a "
                 f"sweep's report, not to a tournament's; `cthulhu-sim report {folder}` alone "
                 "rebuilds the tournament's")
        return _tournament_report(folder)
    if kind == "ladder":
        if csv or uncertainty is not None or skill is not None:
            opt = "--csv" if csv else "--uncertainty" if uncertainty is not None else "--skill"
            fail(f"{opt}: applies to a sweep's report, not to "
                 f"a ladder's; `cthulhu-sim report {folder}` alone rebuilds the ladder's")
        return _ladder_report(folder)
    if kind in _WRITTEN_WHOLE:
        fail(f"{folder}: a {_WRITTEN_WHOLE[kind]}'s folder, whose report (report.md, "
             f"report.html) is written as it is played, not rebuilt; `report` rebuilds a "
             f"sweep's or a tournament's (play the {_WRITTEN_WHOLE[kind]} again with --out "
             "to redraw it)")
    try:
        result = load_sweep(folder)
    except (FileNotFoundError, OutDirError) as exc:
        fail(str(exc))
    links = [(key, target, reader) for key, target, reader in
             [(UNCERTAINTY_KEY, uncertainty, read_band), (SKILL_KEY, skill, read_skill)]
             if target is not None]
    if links and not csv:
        m = result.manifest
        for _key, target, reader in links:  # every link checked before the manifest changes
            if target.strip().lower() != "none":
                try:
                    reader(target, m.get("game"))
                except OutDirError as exc:
                    fail(str(exc))
        for key, target, _ in links:
            if target.strip().lower() == "none":
                m.pop(key, None)
            else:
                m[key] = os.path.relpath(Path(target).resolve(),
                                         Path(folder).resolve()).replace(os.sep, "/")
        try:
            write_json(Path(folder) / "manifest.json", m)
        except OSError as exc:
            cannot_write(exc, folder)
    if csv:
        frame = result.results.copy()
        if "turns_hist" in frame:
            frame["turns_hist"] = [";".join(str(int(x)) for x in h) for h in frame["turns_hist"]]
        typer.echo(frame.to_csv(index=False), nl=False)
        return
    try:
        build_report(result)
    except OutDirError as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, folder)
    except ValueError as exc:  # nothing to report yet
        fail(str(exc))
    typer.echo(format_sweep(result))


# folders whose report is written once, as they are played (no playouts kept to redraw from)
_WRITTEN_WHOLE = {"compare": "comparison"}


def _ladder_report(folder: str) -> None:
    """Rebuild a ladder's report (its chart, report.md and report.html) from its
    ladder.json, and print its summary; written whole or not at all (see
    :func:`experiments.storage.outdir.staged`)."""
    from experiments.analysis.ladder import load_ladder
    from experiments.storage.outdir import staged

    try:
        result = load_ladder(folder)
        with staged(folder, "ladder") as stage:
            paths = [Path(folder) / p.name for p in result.render(stage)]
    except OutDirError as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, folder)
    typer.echo(result.format())
    typer.echo(f"report: {paths[0]}  {paths[1]}")


def _report_kind(folder: str) -> str | None:
    """What ``report`` is given: ``tournament`` (a sweep a tournament wrote), another
    folder kind of this tool (``sweep``, ``ladder`` ...), or None (``load_sweep`` says why)."""
    from experiments.analysis.catalog import is_tournament
    from experiments.storage.outdir import folder_kind, read_manifest

    try:
        kind = folder_kind(folder)
        m = read_manifest(folder) if kind else None
    except (OSError, ValueError, OutDirError):
        return None
    if kind == "sweep" and m is not None and is_tournament(Path(folder), m):
        return "tournament"
    return kind


def _tournament_report(folder: str) -> None:
    """Rebuild a tournament's report (tournament.json, its charts, report.md and
    report.html) from its stored results, and print its summary."""
    from experiments.analysis.tournament import load_tournament, write_extras

    try:
        result = load_tournament(folder)
        paths = write_extras(result, Path(folder))
    except (FileNotFoundError, OutDirError, ValueError, KeyError) as exc:
        fail(str(exc) if not isinstance(exc, KeyError) else
             f"{folder}: the tournament's manifest lacks {exc}; play it again with --out")
    except OSError as exc:
        cannot_write(exc, folder)
    typer.echo(result.format())
    md = next((p for p in paths if p.name == "report.md"), None)
    html = next((p for p in paths if p.name == "report.html"), None)
    if md is not None and html is not None:
        typer.echo(f"report: {md}  {html}")


def list_(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="Where to look.")] = ".",
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
) -> None:
    """The results under a folder: every sweep, comparison, run and pool, with its game,
    cells, games and date."""
    from experiments.analysis.catalog import format_listing, list_folders

    unread = _unreadable(folder)
    if unread and unread[0][0] == folder:
        fail(f"cannot read {folder}: {unread[0][1]}")
    try:
        rows = list_folders(folder)
    except OutDirError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read {exc.filename or folder}: {exc.strerror or exc}")
    for path, why in unread:
        typer.echo(f"note: cannot read {path} ({why}); what it holds is not listed", err=True)
    typer.echo(json_text(rows) if json_out else format_listing(rows))


def _unreadable(folder: str) -> list[tuple[str, str]]:
    """The folders under ``folder`` (``folder`` itself first) that cannot be read, each with
    why; a listing of them would otherwise leave them out without a word."""
    import os

    if not Path(folder).is_dir():
        return []  # (the listing says what is wrong)
    found: list[tuple[str, str]] = []

    def note(exc: OSError) -> None:
        found.append((exc.filename if exc.filename is not None else folder,
                      exc.strerror or str(exc)))

    for _here, dirs, _files in os.walk(folder, onerror=note):
        dirs[:] = [d for d in dirs if d not in ("cells", "playouts", "plays")]
    return found


def diff(
    a: Annotated[str, typer.Argument(metavar="A", help="A sweep's folder.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Another sweep of the same game.")],
    json_out: JsonOpt = False,
) -> None:
    """Two sweeps of the same game cell by cell (B minus A), paired where they share seeds:
    e.g. a rules variant against the default."""
    from experiments.analysis.catalog import diff_sweeps, format_diff

    try:
        d = diff_sweeps(a, b)
    except (FileNotFoundError, OutDirError) as exc:
        fail(str(exc))
    typer.echo(json_text(d) if json_out else format_diff(d))
