"""Hand-built Wake Up, Cthulhu! tables for the rule tests (tests/test_wakeup_rules.py).

A :class:`Table` starts from the rules' own ``setup`` on a fixed stream, then a test writes what
it needs by name (``STATE``/``HIDDEN`` of simcore.wakeup.state): hands, the order of the deck's
top cards, the face-up Grimoire and its piles, tokens on the board, Cthulhu.  What the test does
not place is put where it keeps the 100 cards and every token accounted for (the rest of the
Ingredients in the deck, the rest of the Grimoire in its discard pile), so the rules checker
passes on every table.  ``start_turn`` then runs the game on from the start of a seat's turn,
and ``play`` answers questions through the Python step API, collecting the trace events.
"""

from __future__ import annotations

import numpy as np

from simcore import engine as E
from simcore.engine import StepState
from simcore.kernels import new_rng
from simcore.registry import get_game
from simcore.wakeup import rules
from simcore.wakeup import setup as SU
from simcore.wakeup import state as S

GAME = get_game("wakeup")
M, I, B, EYE, W = range(S.N_ING)  # Mandrake, Insect, Bone, Eye, Arcane Symbol


def config(players: int = 4, strategy: str = "random", **over):
    over = {"players": players, **{k.replace("__", "."): v for k, v in over.items()}}
    return GAME.configure(over, strategy)


class Table:
    def __init__(self, players: int = 4, seed: int = 0, strategy: str = "random", **over):
        self.config = config(players, strategy, **over)
        self.ip = self.config.params.ip
        self.fp = self.config.params.fp
        s = np.zeros(self.ip[E.P_STATE_SIZE], dtype=np.int64)
        h = np.zeros(self.ip[E.P_HIDDEN_SIZE], dtype=np.int64)
        self.st = StepState(s, h, new_rng(seed, 0))
        SU.setup(self.ip, s, h, self.st.rng)
        self.ev = np.zeros((20_000, E.EV_WIDTH), dtype=np.int64)
        self.evn = np.zeros(1, dtype=np.int64)
        self.events: list[tuple[int, ...]] = []
        for p in range(self.players):  # empty hands; everything in the deck for now
            self.set_hand(p, [0] * S.N_ING)
        self.set_deck([])

    # ---- reading and writing by name -----------------------------------------------------
    @property
    def s(self) -> np.ndarray:
        return self.st.s

    @property
    def h(self) -> np.ndarray:
        return self.st.h

    @property
    def players(self) -> int:
        return int(self.ip[E.P_SEATS])

    def __getitem__(self, name: str) -> int:
        return S.STATE.read(self.s, name)

    def __setitem__(self, name: str, value: int) -> None:
        self.s[S.STATE.offset(name)] = value

    def hand(self, p: int) -> list[int]:
        return [int(self.h[S.H_HAND + p * S.N_ING + k]) for k in range(S.N_ING)]

    def bid(self, p: int) -> list[int]:
        return [int(self.h[S.H_BID + p * S.N_ING + k]) for k in range(S.N_ING)]

    def set_hand(self, p: int, counts, keep_deck: bool = False) -> None:
        for k in range(S.N_ING):
            self.h[S.H_HAND + p * S.N_ING + k] = counts[k]
        self.s[S.S_HAND_N + p] = sum(counts)
        if not keep_deck:
            self.set_deck([])

    def unplaced(self) -> list[int]:
        """Ingredients of each kind not in a hand, a bid, the discard pile or an A position."""
        left = []
        for k in range(S.N_ING):
            n = int(self.ip[S.I_ING_COUNT + k]) - int(self.s[S.S_IDISCARD + k])
            for p in range(S.MAX_SEATS):
                n -= int(self.h[S.H_HAND + p * S.N_ING + k] + self.h[S.H_BID + p * S.N_ING + k])
            for i in range(S.A_POSITIONS):
                if k == W:
                    n -= int(self.s[S.S_A_WILD + i])
                elif self.s[S.S_A_KIND + i] == k:
                    n -= int(self.s[S.S_A_NAT + i])
            left.append(n)
        return left

    def set_deck(self, top: list[int], deck_size: int | None = None) -> None:
        """The deck: every Ingredient placed nowhere else, ``top`` drawn first (in that order),
        the others below in kind order; with ``deck_size`` only that many (the rest to the
        discard pile)."""
        left = self.unplaced()
        for k in top:
            left[k] -= 1
            assert left[k] >= 0, f"no Ingredient of kind {k} left for the deck"
        below = [k for k in range(S.N_ING) for _ in range(left[k])]
        if deck_size is not None:
            extra = len(below) + len(top) - deck_size
            assert extra >= 0
            for k in below[:extra]:
                self.s[S.S_IDISCARD + k] += 1
            below = below[extra:]
        order = below + list(reversed(top))  # the top card is the last one
        for i, k in enumerate(order):
            self.h[S.H_DECK + i] = k
        self.s[S.S_DECK_N] = len(order)

    def set_grimoire(self, tops=(), piles=None) -> None:
        """Face-up cards (one per slot, -1 for none) and face-down piles (``{slot: [next
        revealed, then the one after, ...]}``); every other Grimoire card not owned or held goes
        to the discard pile."""
        piles = piles or {}
        slots = int(self.ip[S.I_SLOTS])
        tops = list(tops) + [-1] * (S.MAX_SLOTS - len(tops))
        used = [0] * S.N_CARDS
        for i in range(S.MAX_SLOTS):
            self.s[S.S_TOP + i] = tops[i] if i < slots else -1
            if tops[i] >= 0 and i < slots:
                used[tops[i]] += 1
            self.s[S.S_STACK_N + i] = 0
        for i, cards in piles.items():
            for j, c in enumerate(reversed(cards)):
                self.h[S.H_STACK + i * S.MAX_STACK + j] = c
                used[c] += 1
            self.s[S.S_STACK_N + i] = len(cards)
        for c in range(S.N_CARDS):
            held = used[c]
            if S.OBJ0 <= c < S.CURSE0:
                held += sum(int(self.s[S.S_OBJ + p * S.N_OBJECTS + c - S.OBJ0])
                            for p in range(S.MAX_SEATS))
            if c == S.C_STELLARIS:
                held += sum(int(self.s[S.S_STELLARIS + p]) for p in range(S.MAX_SEATS + 1))
            if self.s[S.S_IN_PLAY] == c:
                held += 1
            left = int(self.ip[S.I_COPIES + c]) - held
            assert left >= 0, f"too many copies of {S.CARD_NAMES[c]}"
            self.s[S.S_GDISCARD + c] = left

    def give_object(self, p: int, card: int, n: int = 1, fresh: bool = False) -> None:
        o = card - S.OBJ0
        self.s[S.S_OBJ + p * S.N_OBJECTS + o] += n
        if fresh:
            self.s[S.S_FRESH + p * S.N_OBJECTS + o] += n
        self.s[S.S_GDISCARD + card] -= n
        assert self.s[S.S_GDISCARD + card] >= 0

    def set_tokens(self, p: int, squares) -> None:
        x = 0
        for q in squares:
            x |= 1 << q
        self.s[S.S_OCC + p] = x
        self.s[S.S_RESERVE + p] = int(self.ip[S.I_TOKENS]) - len(list(squares))

    def tokens(self, p: int) -> list[int]:
        x = int(self.s[S.S_OCC + p])
        return [q for q in range(64) if (x >> q) & 1]

    def owner_line(self) -> str:
        """The board from the Starting square to Cthulhu: a seat digit or '.'."""
        out = []
        for q in range(int(self.ip[S.I_START]), int(self.s[S.S_CTHULHU])):
            who = [p for p in range(self.players) if (int(self.s[S.S_OCC + p]) >> q) & 1]
            out.append(str(who[0]) if who else ".")
        return "".join(out).rstrip(".")

    # ---- playing -------------------------------------------------------------------------
    def _collect(self) -> None:
        n = int(self.evn[0])
        self.events.extend(tuple(int(x) for x in row) for row in self.ev[:n])
        self.evn[0] = 0

    def start_turn(self, p: int) -> None:
        """Run the game on from the start of seat ``p``'s turn (solitaire: from Cthulhu's turn
        when ``p`` is -1)."""
        s = self.s
        for k in range(E.FRAMES, E.HEADER):
            s[k] = 0
        s[E.DEPTH] = 0
        s[S.S_ACTIVE] = max(p, 0)
        E.frame_push(s, S.PR_GAME)
        solo = int(self.ip[S.I_SOLO]) == 1
        E.frame_set(s, 0, 1 if (not solo or p < 0) else 2)  # G_TURNS / G_PLAYER
        rules.run(self.ip, s, self.h, self.st.rng, self.ev, self.evn)
        self._collect()

    def legal(self) -> list[int]:
        return GAME.legal_actions(self.config, self.st).tolist()

    def play(self, *answers: int) -> None:
        """Answer the questions asked, in turn (each must be legal), as the driver does."""
        for a in answers:
            legal = self.legal()
            assert int(a) in legal, f"answer {a} is not legal at decision " \
                f"{S.DECISION_NAMES[self.decision]} (legal: {legal})"
            self.s[E.DECISIONS] += 1
            rules.step(self.ip, self.fp, self.s, self.h, self.st.rng, np.int64(a), self.ev,
                       self.evn)
            self._collect()

    @property
    def decision(self) -> int:
        return int(self.s[E.DECISION])

    @property
    def seat(self) -> int:
        return int(self.s[E.SEAT])

    def check(self) -> int:
        return GAME.check_state(self.config, self.st)

    def logged(self, code: int) -> list[tuple[int, ...]]:
        return [e[1:] for e in self.events if e[0] == code]


def action(slot: int, mode: int = S.MODE_PLAIN) -> int:
    return S.A_CONJURE + 4 * slot + mode


def advance(slot: int) -> int:
    return S.A_ADVANCE + slot
