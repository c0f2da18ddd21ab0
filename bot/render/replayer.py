"""The hand replayer: a settled hand as one table image per street, as one player may see it.

``replay_frames(story, viewer)`` turns a ``HandStory`` into frames: the end of each street that
was dealt (the table as it stood, the street's actions underneath), then the result. Each frame
is a ``HoldemTableView`` drawn by the table renderer, so a replay looks like the live table.

Privacy is by construction: the story must be told from the history *masked for the viewer*
(``engine.holdem.story.masked_history``), which holds only the viewer's own hole cards and the
cards shown at showdown. A frame puts the viewer's own cards face up on their seat (the frames
go to the viewer alone, in an ephemeral reply) and another seat's cards only once they were
shown; mucked and folded cards have nowhere to come from.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.holdem.kinds import SeatStatus, Stage
from bot.render.assets import PALETTE, drawable_text, encode_png, fit_text, font
from bot.render.holdem import SIZE, render_holdem_table
from bot.render.models import HOLDEM_MAX_SEATS, HoldemSeatView, HoldemTableView
from engine.cards import Card, format_cards
from engine.holdem.story import HandStory, Step, StepKind
from engine.holdem.streets import Street

LINE_HEIGHT = 26
PANEL_MARGIN = 18
MAX_LINES = 14
"""Action lines drawn under a frame; more are summed up in one last line."""


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One picture of a replay: the table, what the frame is, and what happened."""

    view: HoldemTableView
    title: str
    """``"Flop"``, ``"Showdown"``..."""
    lines: tuple[str, ...]
    """The actions of the street, or the results, one short line each."""

    @property
    def cards_seen(self) -> frozenset[Card]:
        """Every card face up in the frame (board and seats): what the viewer is shown."""
        seats = (card for seat in self.view.seats for card in seat.shown_cards)
        return frozenset((*self.view.board, *seats))


def _cards(cards: tuple[Card, ...]) -> str:
    return format_cards(cards, symbols=True)


def _step_line(step: Step, names: list[str], story: HandStory) -> str:
    name = names[step.player] if step.player >= 0 else ""
    all_in = " (all-in)" if step.all_in else ""
    match step.kind:
        case StepKind.ANTE:
            return f"{name} posts an ante of {step.amount:,}{all_in}"
        case StepKind.SMALL_BLIND | StepKind.BIG_BLIND | StepKind.STRADDLE:
            return f"{name} posts the {step.kind.value} {step.amount:,}{all_in}"
        case StepKind.FOLD:
            return f"{name} folds"
        case StepKind.CHECK:
            return f"{name} checks"
        case StepKind.CALL:
            return f"{name} calls {step.amount:,}{all_in}"
        case StepKind.BET:
            return f"{name} bets {step.amount:,}{all_in}"
        case StepKind.RAISE:
            return f"{name} raises to {step.bet_to:,}{all_in}"
        case StepKind.RETURNED:
            return f"{step.amount:,} uncalled, back to {name}"
        case StepKind.SHOW:
            value = story.players[step.player].value
            made = f": {value.description}" if value is not None else ""
            return f"{name} shows {_cards(step.cards)}{made}"
        case StepKind.MUCK:
            return f"{name} mucks"
        case _:
            cards = _cards(_board_of(story, step)[: _board_size(step.street)])
            return f"Board {step.board + 1}: {cards}" if story.boards else f"Board: {cards}"


def _board_of(story: HandStory, step: Step) -> tuple[Card, ...]:
    """The board a board step deals to (a double board's second, or a later run's)."""
    return story.boards[step.board] if story.boards else story.board


def _board_size(street: Street) -> int:
    return (0, 3, 4, 5)[street]


class _Table:
    """The seats as the steps move them, and frames taken of them."""

    def __init__(self, story: HandStory, viewer: int | None, number: int, name: str) -> None:
        self.story = story
        self.viewer = viewer
        self.number = number
        self.name = name
        n = len(story.players)
        self.stacks = [p.starting_stack for p in story.players]
        self.bets = [0] * n
        self.out = [False] * n
        self.last = [""] * n
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.pot = 0
        self.board: tuple[Card, ...] = ()
        own = story.players[viewer].hole if viewer is not None else None
        if viewer is not None and own is not None:
            self.shown[viewer] = own

    def apply(self, step: Step) -> None:
        player, kind = step.player, step.kind
        self.pot = step.pot
        if kind is StepKind.RETURNED:
            self.stacks[player] += step.amount
            self.bets[player] = max(0, self.bets[player] - step.amount)
        elif kind is StepKind.BOARD:
            self.board = _board_of(self.story, step)[: _board_size(step.street)]
            self.bets = [0] * len(self.bets)
            self.last = [""] * len(self.last)
        elif kind is StepKind.SHOW:
            self.shown[player] = step.cards
            self.last[player] = "Shows"
        elif kind in (StepKind.FOLD, StepKind.MUCK):
            self.out[player] = True
            self.last[player] = "Fold" if kind is StepKind.FOLD else "Muck"
        else:
            self.stacks[player] -= step.amount
            if kind is not StepKind.ANTE:
                self.bets[player] = step.bet_to
            self.last[player] = _short(step)

    def seats(self, *, result: bool) -> tuple[HoldemSeatView, ...]:
        story = self.story
        by_seat = {p.seat_no: p for p in story.players}
        count = story.seat_count
        every_chair = count <= HOLDEM_MAX_SEATS and all(1 <= seat <= count for seat in by_seat)
        numbers = range(1, count + 1) if every_chair else sorted(by_seat)
        seats = []
        for number in numbers:
            player = by_seat.get(number)
            if player is None:
                seats.append(HoldemSeatView(seat=number, status=SeatStatus.EMPTY))
                continue
            i = player.number
            stack = player.final_stack if result else self.stacks[i]
            status = (
                SeatStatus.FOLDED
                if self.out[i]
                else SeatStatus.ALL_IN
                if stack == 0 and not result
                else SeatStatus.ACTIVE
            )
            kind = story.blind_kind(i)
            value = player.value if result and i in self.shown else None
            seats.append(
                HoldemSeatView(
                    seat=number,
                    name=player.name,
                    stack=stack,
                    bet=0 if result else self.bets[i],
                    status=status,
                    is_button=i == story.button.number,
                    is_small_blind=kind is StepKind.SMALL_BLIND,
                    is_big_blind=kind is StepKind.BIG_BLIND,
                    shown_cards=self.shown.get(i, ()),
                    hand_description=value.description if value is not None else "",
                    amount_won=story.won_by(i) if result else 0,
                    last_action="" if result else self.last[i],
                )
            )
        return tuple(seats)

    def frame(self, stage: Stage, lines: list[str], *, result: bool = False) -> ReplayFrame:
        stakes = self.story.stakes
        pots = (
            tuple(pot.amount for pot in self.story.pots) if result else (self.pot - sum(self.bets),)
        )
        view = HoldemTableView(
            table_name=self.name,
            hand_number=self.number,
            street=stage,
            seats=self.seats(result=result),
            board=self.board,
            pots=pots,
            small_blind=stakes.blinds_or_straddles[0],
            big_blind=stakes.blinds_or_straddles[1],
        )
        return ReplayFrame(view, stage.label, tuple(lines))


def _short(step: Step) -> str:
    match step.kind:
        case StepKind.CHECK:
            return "Check"
        case StepKind.CALL:
            return f"Call {step.amount:,}"
        case StepKind.BET:
            return f"Bet {step.amount:,}"
        case StepKind.RAISE:
            return f"Raise to {step.bet_to:,}"
        case StepKind.ANTE:
            return "Ante"
        case _:
            return str(step.kind.value).capitalize()


def replay_frames(
    story: HandStory, viewer: int | None, *, table_name: str, hand_number: int
) -> tuple[ReplayFrame, ...]:
    """One frame per street dealt (as it stood when the street's betting ended), then the
    result. ``viewer`` is the PHH index of the player watching (their own cards face up)."""
    names = [player.name for player in story.players]
    table = _Table(story, viewer, hand_number, table_name)
    frames: list[ReplayFrame] = []
    street = Street.PREFLOP
    antes = [step.amount for step in story.steps if step.kind is StepKind.ANTE]
    collapsed = bool(antes) and len(set(antes)) == 1  # one line for equal antes
    lines = [f"Antes: {antes[0]:,} each"] if collapsed else []
    for step in story.steps:
        if step.kind is StepKind.BOARD:
            frames.append(table.frame(Stage.of_engine(street), lines))
            street, lines = step.street, []
        if step.kind is not StepKind.ANTE or not collapsed:
            lines.append(_step_line(step, names, story))
        table.apply(step)
    frames.append(table.frame(Stage.of_engine(street), lines))
    showdown = any(player.shown for player in story.players)
    results = [_pot_line(story, names, number) for number in range(len(story.pots))]
    stage = Stage.SHOWDOWN if showdown else Stage.HAND_OVER
    frames.append(table.frame(stage, [line for line in results if line], result=True))
    return tuple(frames)


def _pot_line(story: HandStory, names: list[str], number: int) -> str:
    pot = story.pots[number]
    where = (
        "the pot"
        if len(story.pots) == 1
        else ("the main pot" if number == 0 else f"side pot {number}")
    )
    winners = " and ".join(f"{names[player]} ({share:,})" for player, share in pot.shares if share)
    made = f" with {pot.description}" if pot.description else ""
    return f"{winners} won {where} of {pot.amount:,}{made}" if winners else ""


def render_replay_frame(frame: ReplayFrame) -> bytes:
    """The frame as PNG bytes: the table image with the frame's lines under it. Safe to call
    from worker threads; the same frame gives the same bytes."""
    table = Image.open(io.BytesIO(render_holdem_table(frame.view))).convert("RGB")
    lines = list(frame.lines)
    if len(lines) > MAX_LINES:
        hidden = len(lines) - MAX_LINES + 1
        lines = [*lines[: MAX_LINES - 1], f"... and {hidden} more"]
    panel = PANEL_MARGIN * 2 + LINE_HEIGHT * (len(lines) + 1)
    canvas = Image.new("RGB", (SIZE[0], SIZE[1] + panel), PALETTE.background)
    canvas.paste(table, (0, 0))
    draw = ImageDraw.Draw(canvas)
    title_face, face = font(20, bold=True), font(18)
    y = SIZE[1] + PANEL_MARGIN
    draw.text((PANEL_MARGIN, y), drawable_text(frame.title), font=title_face, fill=PALETTE.chips)
    for line in lines:
        y += LINE_HEIGHT
        text = fit_text(drawable_text(line), face, SIZE[0] - 2 * PANEL_MARGIN)
        draw.text((PANEL_MARGIN, y), text, font=face, fill=PALETTE.text)
    return encode_png(canvas, palette=True)
