"""Every numbered rule clause of an enabled game is named by at least one test.

A clause file (tests/clauses/<game>.md) defines one clause per line, ``- ID: text``, where an
ID is ``PREFIX-SECTION-N`` (e.g. ``STK-T-5``) or a range ``PREFIX-SECTION-N..M`` (e.g.
``STK-C-4..15``, expanded to every number).  A test names a clause with the ID itself
(``STK-T-5``, in a docstring, an id or a comment) or with underscores (``test_STK_T_5_...``).

To cover another game, add its clause file to CLAUSE_FILES once its tests name the clauses.
"""

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
CLAUSES = TESTS / "clauses"

# ID prefix -> clause file under tests/clauses/.  Only games whose tests are written are
# enabled; the others are listed so that turning one on is a one-line change.
CLAUSE_FILES = {
    "STK": "sticky.md",
    "TEC": "tec.md",
    "HEX": "hexgame.md",
    "WUC": "wakeup.md",
}
NOT_YET: dict[str, str] = {}  # every game's clauses are enabled

_DEFINITION = re.compile(r"^- ([A-Z]+(?:-[A-Z]+)+)-(\d+)(?:\.\.(\d+))?:\s+\S", re.M)


def clause_ids(text: str, prefix: str) -> list[str]:
    """The clause IDs defined in a clause file's text, ranges expanded, in order."""
    ids = []
    for m in _DEFINITION.finditer(text):
        stem, first, last = m[1], int(m[2]), int(m[3] or m[2])
        assert stem.split("-")[0] == prefix, f"clause {stem}-{first} in the {prefix} file"
        assert last >= first, f"empty range {m[0]!r}"
        ids.extend(f"{stem}-{n}" for n in range(first, last + 1))
    return ids


def id_pattern(clause: str) -> re.Pattern:
    """Matches the ID with dashes or underscores, not as part of a longer number."""
    parts = [re.escape(p) for p in clause.split("-")]
    return re.compile(r"(?<![A-Za-z0-9])" + "[-_]".join(parts) + r"(?!\d)")


def _test_sources() -> str:
    """The text of every test file but this one and the clause files."""
    here = Path(__file__).resolve()
    texts = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.resolve() == here or CLAUSES in path.resolve().parents:
            continue
        texts.append(path.read_text(encoding="utf-8"))
    return "\n".join(texts)


def all_clauses() -> list[tuple[str, str]]:
    out = []
    for prefix, name in CLAUSE_FILES.items():
        text = (CLAUSES / name).read_text(encoding="utf-8")
        out.extend((name, c) for c in clause_ids(text, prefix))
    return out


SOURCES = _test_sources()
CLAUSE_LIST = all_clauses()


@pytest.mark.parametrize("clause_file,clause", CLAUSE_LIST, ids=[c for _, c in CLAUSE_LIST])
def test_clause_is_named_by_a_test(clause_file, clause):
    assert id_pattern(clause).search(SOURCES), (
        f"no test under tests/ names clause {clause} of tests/clauses/{clause_file}")


def test_sticky_clause_file_parses_completely():
    ids = [c for f, c in CLAUSE_LIST if f == "sticky.md"]
    assert len(ids) == len(set(ids)) == 30
    assert ids[:4] == ["STK-S-1", "STK-S-2", "STK-S-3", "STK-S-4"]
    assert ids[-12:] == [f"STK-C-{n}" for n in range(4, 16)]
    assert "STK-E-1" in ids and "STK-T-9" in ids and "STK-T-10" in ids


def test_tec_clause_file_parses_completely():
    ids = [c for f, c in CLAUSE_LIST if f == "tec.md"]
    assert len(ids) == len(set(ids)) == 72
    assert ids[:2] == ["TEC-S-1", "TEC-S-2"] and ids[-1] == "TEC-DI-1"
    assert "TEC-ACC-6" in ids and "TEC-SE-5" in ids


def test_hex_clause_file_parses_completely():
    ids = [c for f, c in CLAUSE_LIST if f == "hexgame.md"]
    assert len(ids) == len(set(ids)) == 27
    assert ids[0] == "HEX-S-1" and ids[-1] == "HEX-B-1"
    assert [c for c in ids if c.startswith("HEX-MV-")] == [f"HEX-MV-{n}" for n in range(1, 10)]


def test_wakeup_clause_file_parses_completely():
    ids = [c for f, c in CLAUSE_LIST if f == "wakeup.md"]
    assert len(ids) == len(set(ids)) == 57
    assert ids[0] == "WUC-S-1" and ids[-1] == "WUC-SO-12"
    assert "WUC-CU-9" in ids and "WUC-OB-4" in ids


def test_every_clause_file_is_known():
    known = set(CLAUSE_FILES.values()) | set(NOT_YET.values())
    assert {p.name for p in CLAUSES.glob("*.md")} <= known


def test_id_pattern_and_range_expansion():
    text = "- ABC-X-2..4: ranged clause\n- ABC-Y-10: one\nsee ABC-Z-1 in passing\n"
    assert clause_ids(text, "ABC") == ["ABC-X-2", "ABC-X-3", "ABC-X-4", "ABC-Y-10"]
    pat = id_pattern("STK-C-1")
    assert pat.search("test_STK_C_1_a_token") and pat.search('"""STK-C-1: ..."""')
    assert not pat.search("STK-C-10") and not pat.search("STK_C_12_x")
    assert not pat.search("XSTK-C-1")
