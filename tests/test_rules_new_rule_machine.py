"""New Rule as a hypothesis state machine: random legal and illegal moves, invariants after each."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rules import Game, load_game, new_game
from rules import new_rule as nr
from rules.core import RuleError

ANY_ACTION = st.one_of(
    st.builds(nr.Draw, seat=st.integers(-1, 5)),
    st.builds(nr.Keep, seat=st.integers(0, 4)),
    st.builds(nr.Swap, seat=st.integers(0, 4), colour=st.sampled_from(nr.COLOURS + ("purple",))),
    st.builds(nr.Pick, seat=st.integers(0, 4), colour=st.sampled_from(nr.COLOURS)),
    st.builds(
        nr.Pay,
        seat=st.integers(0, 4),
        returned=st.lists(st.sampled_from(nr.COLOURS), max_size=12).map(tuple),
        eaten=st.integers(-1, 4),
    ),
    st.builds(nr.Drawn, seat=st.integers(0, 4), candies=st.lists(st.sampled_from(nr.COLOURS), max_size=3).map(tuple)),
)


class NewRuleMachine(RuleBasedStateMachine):
    game: Game

    @initialize(
        players=st.integers(3, 5),
        seed=st.integers(0, 2**32),
        per_bag=st.integers(1, 9),
        max_rounds=st.sampled_from([None, 3, 12]),
    )
    def start(self, players: int, seed: int, per_bag: int, max_rounds: int | None) -> None:
        names = tuple(f"P{i}" for i in range(players))
        self.game = new_game("new-rule", nr.Setup(names=names, per_bag=per_bag, hand=6, max_rounds=max_rounds), seed)
        self.total = self.game.state.setup.total_candies

    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        state = self.game.state
        if state.over:
            return
        seat = data.draw(st.sampled_from(state.waiting_for()))
        options = nr.legal_actions(state, seat, payment_limit=30)
        assert options, f"seat {seat} is waited on but has no legal action in {state.phase}"
        self.game.apply(data.draw(st.sampled_from(options)))

    @rule(action=ANY_ACTION)
    def any_move(self, action: nr.Action) -> None:
        before_state, before_log = self.game.state, list(self.game.actions)
        try:
            self.game.apply(action)
        except RuleError:
            assert self.game.state == before_state and self.game.actions == before_log

    @rule()
    def undo(self) -> None:
        if self.game.undo_blocker() is None:
            moves = len(self.game.actions)
            self.game.undo()
            assert len(self.game.actions) == moves - 1
            assert load_game(self.game.to_json()).state == self.game.state

    @invariant()
    def candies_are_conserved_apart_from_eaten_reds(self) -> None:
        state = self.game.state
        held = sum(p.candies for p in state.players)
        eaten = sum(p.eaten for p in state.players)
        assert sum(state.common) + held + len(state.drawn) + eaten == self.total
        assert all(n >= 0 for n in state.common)
        assert all(n >= 0 for p in state.players for n in p.bowl)

    @invariant()
    def out_players_hold_nothing(self) -> None:
        assert all(p.candies == 0 for p in self.game.state.players if p.out)

    @invariant()
    def replay_gives_the_same_state(self) -> None:
        again = load_game(self.game.to_json())
        assert again.state == self.game.state

    @invariant()
    def other_seats_never_see_a_private_draw(self) -> None:
        state = self.game.state
        for seat in range(state.setup.players):
            view = nr.view_for(state, seat)
            if seat != state.turn:
                assert view.drawn == ()
            assert all(s.bowl is None for i, s in enumerate(view.seats) if i != seat and not state.over)


NewRuleMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestNewRuleMachine = NewRuleMachine.TestCase
