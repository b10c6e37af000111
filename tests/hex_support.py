"""Hand-built positions of the hex wargame for rule tests: a board in play with counters,
Artefacts and Undergrowth put where a test says, addressed by hex names ("d5") and counter
names ("John Wilson", "Cultist 3"), then stepped through the game's own functions."""

from __future__ import annotations

import numpy as np

from simcore import engine as E
from simcore.hex import rules as R
from simcore.hex import state as S
from simcore.hex.trace import hex_name
from simcore.registry import get_game

NO_EV = np.zeros((0, E.EV_WIDTH), dtype=np.int64)


def no_evn() -> np.ndarray:
    return np.zeros(1, dtype=np.int64)


class Board:
    """A game in play on an empty board (setup skipped), ready for a side's turn."""

    def __init__(self, overrides=None, strategy: str = "random", seed: int = 0) -> None:
        self.game = get_game("hex")
        self.config = self.game.configure(overrides, strategy)
        self.ip = self.config.params.ip
        self.fp = self.config.params.fp
        self.names = list(self.config.params.counter_names)
        self.cols = self.config.params.cols
        self.rows = self.config.params.rows
        self.st = self.game.new_state(self.config, seed, 0)
        s = self.st.s
        s[:] = 0
        E.clear_header(s)
        for c in range(int(self.ip[S.I_N_COUNTERS])):
            s[S.S_C_POS + c] = -1
            s[S.S_C_STATUS + c] = S.CS_WAITING
        for a in range(int(self.ip[S.I_N_ARTEFACTS])):
            s[S.S_A_HEX + a] = -1
        s[S.S_FIRST_PICKUP] = -1
        s[S.S_PLACED] = int(self.ip[S.I_N_ARTEFACTS] + self.ip[S.I_N_UNDERGROWTH])
        E.frame_push(s, S.PR_TURN)

    @property
    def s(self) -> np.ndarray:
        return self.st.s

    # ---- names ------------------------------------------------------------------------------
    def hex(self, name: str) -> int:
        col = ord(name[0]) - ord("a")
        row = int(name[1:]) - 1
        assert 0 <= col < self.cols and 0 <= row < self.rows, name
        return row * self.cols + col

    def name_of(self, h: int) -> str:
        return hex_name(h, self.cols)

    def counter(self, name: str) -> int:
        return self.names.index(name)

    def pos(self, name: str) -> str | None:
        h = int(self.s[S.S_C_POS + self.counter(name)])
        return None if h < 0 else self.name_of(h)

    # ---- putting things on the board ----------------------------------------------------------
    def put(self, name: str, where: str) -> int:
        c = self.counter(name)
        side = int(self.ip[S.I_C_SIDE + c])
        R.put_counter(self.s, c, side, self.hex(where))
        self.s[S.S_C_STATUS + c] = S.CS_ON_BOARD
        self.s[S.S_ENTERED + side] += 1
        return c

    def artefact(self, a: int, where: str) -> None:
        R.put_artefact(self.s, a, self.hex(where))

    def undergrowth(self, *where: str) -> None:
        for w in where:
            h = self.hex(w)
            R.bits_add(self.s, S.S_UG_BITS, h)
            self.s[S.S_H_UNDERGROWTH + h] = 1
        R.count_home_steps(self.ip, self.s)

    def retire(self, *names: str) -> None:
        """Counters dead before the test starts (off the board for good)."""
        for name in names:
            c = self.counter(name)
            self.s[S.S_C_STATUS + c] = S.CS_DEAD
            side = int(self.ip[S.I_C_SIDE + c])
            self.s[S.S_LOST + side] += 1
            self.s[S.S_KILLS + 1 - side] += 1

    def enter_all_but(self, side: int, *keep: str) -> None:
        """Mark every counter of ``side`` but ``keep`` as already brought on and killed, so
        entering rules see them as gone."""
        for c, name in enumerate(self.names):
            if int(self.ip[S.I_C_SIDE + c]) == side and name not in keep \
                    and self.s[S.S_C_STATUS + c] == S.CS_WAITING:
                self.s[S.S_ENTERED + side] += 1
                self.retire(name)

    # ---- playing ------------------------------------------------------------------------------
    def start_turn(self, side: int, enter: bool = False) -> None:
        """``side``'s turn begins (turn counter +1) and the game runs to its first question;
        unless ``enter``, the side brings nobody on (the question is answered with a pass)."""
        self.s[S.S_SIDE] = 1 - side
        R.count_home_steps(self.ip, self.s)
        R.begin_turn(self.ip, self.s, side, NO_EV, no_evn())
        if int(self.s[E.OUTCOME]) == E.PLAYING:
            R.advance(self.ip, self.s, self.st.rng, NO_EV, no_evn())
        if not enter and self.decision() == S.D_ENTER and int(self.s[E.OUTCOME]) == E.PLAYING:
            self.act(S.A_PASS)

    def pass_entry(self) -> None:
        """Answer a pending "bring a counter on?" with a pass."""
        if self.decision() == S.D_ENTER:
            self.act(S.A_PASS)

    def legal(self) -> list[int]:
        return [int(a) for a in self.game.legal_actions(self.config, self.st)]

    def legal_hexes(self) -> set[str]:
        return {self.name_of(h) for h in self.legal()}

    def act(self, action: int) -> None:
        self.game.apply(self.config, self.st, int(action))

    def decision(self) -> int:
        return int(self.s[E.DECISION])

    def end_movement(self) -> None:
        assert self.decision() == S.D_MOVE_PICK, self.decision()
        self.act(S.A_END)

    def move(self, name: str, where: str, leave: bool | None = None) -> None:
        assert self.decision() == S.D_MOVE_PICK, self.decision()
        self.act(self.counter(name))
        if self.decision() == S.D_DROP:
            self.act(S.A_LEAVE if leave else S.A_KEEP)
        assert self.decision() == S.D_MOVE_TO
        self.act(self.hex(where))

    def reach(self, name: str, leave: int = 0) -> set[str]:
        lo, hi = R.reach(self.ip, self.s, self.counter(name), leave)
        mask = np.zeros(S.MAX_HEX, dtype=np.uint8)
        R.bits_to_mask(lo, hi, mask)
        return {self.name_of(h) for h in np.flatnonzero(mask)}

    def events(self) -> tuple[np.ndarray, np.ndarray]:
        ev = np.zeros((1000, E.EV_WIDTH), dtype=np.int64)
        return ev, no_evn()
