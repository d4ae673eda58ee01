"""Dangerous Ideas as a hypothesis state machine: random legal and illegal moves, invariants after each.

The stone ledger is kept here from the action log (not from the model's own counters): every
stone gained (start, setting round, turn, Gain, plot unfinished, a new meme, a connector's
reward) minus every own stone spent into a pool must equal the stones on the sheets.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from lab import BOTS
from lab import dangerous_ideas as di_lab
from rules import dangerous_ideas as di
from rules.core import Game, RuleError, rng_for

GAMES = {"dangerous-ideas": di.RULES}
SEAT = st.integers(-1, 5)
BRANCH = st.sampled_from(di.BRANCHES + ("attic-1",))
PLACE = st.sampled_from(di.PLACES + ("attic",))
TEXT = st.sampled_from(["Wolves lie", "  wolves   LIE ", "P0's truth 1", "P1's belief 1", "", "Forests need wolves"])
HOLDER = st.sampled_from(["Wolf", "granny", "the Hero", "the Villain", " "])
NARRATION = st.sampled_from(["", "And so it went.", "x" * 4001])
TARGET = st.none() | st.builds(di.Ref, seat=SEAT, branch=BRANCH)
USES = st.lists(st.builds(di.Use, branch=BRANCH, bonus=st.integers(-1, 2), stones=st.integers(-1, 3)), max_size=3).map(tuple)
STONES = st.integers(-1, 6)


def spend(cls):
    return st.builds(cls, seat=SEAT, from_node=STONES, from_think=STONES, memes=USES, narration=NARRATION)


ANY_ACTION = st.one_of(
    st.builds(di.Place, seat=SEAT, place=st.lists(PLACE, min_size=6, max_size=8).map(tuple)),
    st.builds(di.Write, seat=SEAT, branch=BRANCH, text=TEXT, holder=HOLDER, narration=NARRATION),
    st.builds(di.Title, seat=SEAT, title=TEXT),
    st.builds(di.TurnStones, seat=SEAT, place=st.lists(PLACE, min_size=1, max_size=3).map(tuple)),
    st.builds(di.Gain, seat=SEAT, place=st.lists(PLACE, min_size=2, max_size=4).map(tuple)),
    st.builds(di.Move, seat=SEAT, steps=st.lists(st.builds(di.Step, source=PLACE, target=PLACE, stones=st.integers(-1, 4)), max_size=3).map(tuple)),
    st.builds(di.Create, seat=SEAT, text=TEXT, holder=HOLDER, target=TARGET, narration=NARRATION),
    st.builds(di.Spread, seat=SEAT, text=TEXT, holder=HOLDER, target=TARGET, narration=NARRATION),
    st.builds(di.PlotUnfinished, seat=SEAT),
    st.builds(di.EndTurn, seat=SEAT),
    spend(di.Stake),
    spend(di.Connect),
    spend(di.Defend),
    st.builds(di.Pass, seat=SEAT),
    st.builds(di.SpendSeed, seat=SEAT, die=st.integers(-1, 2)),
    st.builds(di.Roll, dice=st.lists(st.integers(0, 7), min_size=1, max_size=3).map(tuple)),
    st.builds(di.Rerolled, die=st.integers(-1, 2), value=st.integers(0, 7)),
    st.builds(di.Conclude, seat=SEAT, branch=st.none() | BRANCH, from_hub=st.integers(-1, 3)),
)


def ledger(game: Game) -> list[int]:
    """Stones each seat should hold: gains minus own stones spent, read from the record."""
    state0 = game.states[0]
    held = [0] * state0.n
    for action, before in zip(game.actions, game.states[:-1]):
        seat = action.seat
        if isinstance(action, di.Place):
            held[seat] += len(action.place)
        elif isinstance(action, di.Write):
            held[seat] += 1
        elif isinstance(action, (di.TurnStones, di.Gain)):
            held[seat] += len(action.place)
        elif isinstance(action, di.PlotUnfinished):
            held[seat] += di.PLOT_STONES
        elif isinstance(action, (di.Stake, di.Connect, di.Defend)):
            held[seat] -= action.from_node + action.from_think + sum(u.stones for u in action.memes)
        elif isinstance(action, di.Conclude) and before.attempt.success:
            held[seat] += di.NEW_MEME_STONES
            for other, side in enumerate(before.attempt.sides):
                if side == "connect":
                    held[other] += di.CONNECT_REWARD
    return held


class DangerousIdeasMachine(RuleBasedStateMachine):
    game: Game

    @initialize(
        players=st.integers(3, 5),
        seed=st.integers(0, 2**32),
        chapters=st.sampled_from([None, 2, 3]),
        seeds=st.integers(0, 3),
        prelude=st.integers(0, 100),
        opener=st.sampled_from(sorted(BOTS["dangerous-ideas"])),
    )
    def start(self, players: int, seed: int, chapters: int | None, seeds: int, prelude: int, opener: str) -> None:
        names = tuple(f"P{i}" for i in range(players))
        self.game = Game(di.RULES, di.Setup(names=names, chapters=chapters, seeds=seeds), seed, keep=None)
        # Bots play the opening so the machine spends its steps in the chapters.
        rng = rng_for(seed, -1)
        for _ in range(prelude):
            state = self.game.state
            if state.over:
                break
            seat = state.waiting_for()[0]
            self.game.apply(BOTS["dangerous-ideas"][opener](state, seat, rng))

    def _apply(self, action: di.Action) -> None:
        before, log = self.game.state, list(self.game.actions)
        try:
            self.game.apply(action)
        except RuleError:
            assert self.game.state is before and self.game.actions == log
            return
        for done in self.game.actions[len(log) :]:
            if isinstance(done, (di.Stake, di.Connect, di.Defend)):
                pools = self.game.state.attempt.pools if self.game.state.attempt else ()
                assert all(p >= 0 for p in pools)

    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        state = self.game.state
        if state.over:
            return
        seat = data.draw(st.sampled_from(state.waiting_for()))
        options = di_lab.legal_actions(state, seat)
        assert options, f"seat {seat} is waited on but has no legal action in {state.phase}"
        self._apply(data.draw(st.sampled_from(options)))

    @rule(data=st.data(), bot=st.sampled_from(sorted(BOTS["dangerous-ideas"])))
    def bot_move(self, data: st.DataObject, bot: str) -> None:
        state = self.game.state
        if state.over:
            return
        seat = state.waiting_for()[0]
        action = BOTS["dangerous-ideas"][bot](state, seat, data.draw(st.randoms(use_true_random=False)))
        di.check(state, action)  # bots only play legal moves
        self._apply(action)

    @rule(action=ANY_ACTION)
    def any_move(self, action: di.Action) -> None:
        self._apply(action)

    @rule()
    def undo(self) -> None:
        if self.game.undo_blocker() is None:
            moves = len(self.game.actions)
            self.game.undo()
            assert len(self.game.actions) == moves - 1

    @invariant()
    def stones_are_accounted_for(self) -> None:
        state = self.game.state
        expected = ledger(self.game)
        for seat, sheet in enumerate(state.sheets):
            assert sheet.stones == expected[seat] == sheet.gained - sheet.spent
            assert all(n >= 0 for n in sheet.nodes)
            assert all(m.stones >= 0 and 0 <= m.bonus <= di.BONUS_STONES for _, m in sheet.memes())
            assert 0 <= sheet.seeds <= state.setup.seeds

    @invariant()
    def the_pool_and_turn_counters_stay_in_range(self) -> None:
        state = self.game.state
        assert 0 <= state.actions_taken <= di.ACTIONS_PER_TURN
        if state.attempt is not None:
            assert state.attempt.pool >= 0
            assert state.phase in ("stake", "respond", "roll", "reroll", "rerolling", "outcome")
        assert state.over or state.waiting_for() or state.phase in ("roll", "rerolling")

    @invariant()
    def replay_is_exact(self) -> None:
        game = self.game
        again = Game(di.RULES, game.setup, game.seed, list(game.actions))
        assert again.state == game.state and again.actions == game.actions

    def teardown(self) -> None:
        # The save file too (once per example: parsing it is the slow part).
        again = Game.from_json(GAMES, self.game.to_json())
        assert again.state == self.game.state

    @invariant()
    def nothing_is_hidden(self) -> None:
        state = self.game.state
        public = di.view_for(state, None)
        for seat in range(state.n):
            view = di.view_for(state, seat)
            assert view.sheets == public.sheets and view.log == public.log and view.attempt == public.attempt


DangerousIdeasMachine.TestCase.settings = settings(
    max_examples=20, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestDangerousIdeasMachine = DangerousIdeasMachine.TestCase
