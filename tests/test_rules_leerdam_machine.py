"""Leerdam as a hypothesis state machine: random legal and illegal moves, invariants after each."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from lab import BOTS
from rules import Game, load_game
from rules import leerdam as ld
from rules.core import RuleError

SEAT = st.integers(-1, 7)
ASSIGNMENT = st.builds(ld.Assignment, recipient=SEAT, activity=st.sampled_from(ld.ACTIVITIES + ("fishing",)), units=st.integers(-1, 7))
ANY_ACTION = st.one_of(
    st.builds(ld.Contribute, seat=SEAT, units=st.integers(-1, 7)),
    st.builds(ld.Allocate, seat=SEAT, plan=st.lists(ASSIGNMENT, max_size=4).map(tuple)),
    st.builds(ld.Offer, seat=SEAT, partner=SEAT, wealth=st.integers(-5, 60), units=st.integers(-1, 7), activity=st.sampled_from(ld.ACTIVITIES)),
    st.builds(ld.Accept, seat=SEAT, deal=st.integers(0, 4)),
    st.builds(ld.Decline, seat=SEAT, deal=st.integers(0, 4)),
    st.builds(ld.Gift, seat=SEAT, to=SEAT, wealth=st.integers(-5, 60)),
    st.builds(ld.Advance, seat=st.none() | SEAT),
    st.builds(ld.Flood, strength=st.integers(0, 7)),
    st.builds(ld.SetMisfortune, losses=st.lists(st.integers(-1, 7), min_size=4, max_size=7).map(tuple)),
)
#: moves that never touch VP
NO_VP = (ld.Contribute, ld.Offer, ld.Accept, ld.Decline, ld.Gift, ld.Misfortune, ld.SetMisfortune)


class LeerdamMachine(RuleBasedStateMachine):
    game: Game

    @initialize(households=st.integers(4, 7), seed=st.integers(0, 2**32), sticky=st.booleans(), end_from=st.integers(1, 4), anonymous=st.booleans())
    def start(self, households: int, seed: int, sticky: bool, end_from: int, anonymous: bool) -> None:
        names = tuple(f"H{i}" for i in range(households))
        # every state kept, to check each step
        setup = ld.Setup(names=names, sticky_flood=sticky, end_check_from=end_from, anonymous=anonymous)
        self.game = Game(ld.RULES, setup, seed, keep=None)

    def _apply(self, action: ld.Action) -> None:
        before = self.game.state
        start = len(self.game.actions)
        try:
            self.game.apply(action)
        except RuleError:
            assert self.game.state == before and len(self.game.actions) == start
            return
        # VP moves only in the harvest, the flood year's end and the final scoring.
        prev = before
        for done, state in zip(self.game.actions[start:], self.game.states[start + 1 :]):
            if isinstance(done, NO_VP):
                assert [h.vp for h in state.households] == [h.vp for h in prev.households], done
            if isinstance(done, (ld.Gift, ld.Accept)):
                assert sum(h.wealth for h in state.households) == sum(h.wealth for h in prev.households)
            prev = state

    @rule(data=st.data())
    def bot_move(self, data: st.DataObject) -> None:
        state = self.game.state
        if state.over or not state.waiting_for():
            return
        seat = data.draw(st.sampled_from(state.waiting_for()))
        bot = data.draw(st.sampled_from(sorted(BOTS["leerdam"])))
        self._apply(BOTS["leerdam"][bot](state, seat, data.draw(st.randoms(use_true_random=False))))

    @rule(action=ANY_ACTION)
    def any_move(self, action: ld.Action) -> None:
        self._apply(action)

    @rule(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        state = self.game.state
        if state.phase != "allocate":
            return
        buyer, seller = data.draw(st.permutations(range(state.n)))[:2]
        self._apply(ld.Offer(seat=buyer, partner=seller, wealth=data.draw(st.integers(0, 20)), units=data.draw(st.integers(1, 3))))
        if self.game.state.deals:
            last = self.game.state.deals[-1]
            self._apply(ld.Accept(seat=last.seller, deal=last.id))

    @rule()
    def advance(self) -> None:
        self._apply(ld.Advance())

    @rule(show=st.booleans())
    def show_pledges(self, show: bool) -> None:
        self._apply(ld.ShowPledges(show=show))

    @rule()
    def undo(self) -> None:
        if self.game.undo_blocker() is None:
            self.game.undo()

    @invariant()
    def wealth_never_negative_and_dyke_in_range(self) -> None:
        state = self.game.state
        assert all(h.wealth >= 0 for h in state.households)
        assert 1 <= state.dyke <= 6

    @invariant()
    def free_units_never_negative(self) -> None:
        state = self.game.state
        if state.phase == "allocate":
            assert all(state.free_units(s) >= 0 for s in range(state.n))

    @invariant()
    def replay_is_exact(self) -> None:
        assert load_game(self.game.to_json()).state == self.game.state

    @invariant()
    def pledges_stay_secret_until_the_reveal(self) -> None:
        state = self.game.state
        if state.phase == "contribute":
            for seat in (None, *range(state.n)):
                view = ld.view_for(state, seat)
                assert all(h.pledge is None for i, h in enumerate(view.households) if i != seat)


    @invariant()
    def anonymous_pledges_leave_the_public_nothing_of_one_household(self) -> None:
        state = self.game.state
        if not ld.public_pledges_hidden(state):
            return
        view = ld.view_for(state, None)
        assert view.deals == () and all(h.pledge is None and h.capacity is None for h in view.households)
        assert state.over or (view.standings == () and all(h.wealth is None and h.vp is None for h in view.households))
        for line in map(str, view.log):
            if any(name in line for name in state.names) and not line.startswith("Final VP:"):
                assert line.endswith((" has made a secret pledge.", " has allocated this year's labour.")), line


LeerdamMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TestLeerdamMachine = LeerdamMachine.TestCase
