"""What the Blackjack front writes in Discord: the table message, the posts, the rules.

Pure functions of the host's public snapshots and events (no Discord I/O): the snapshots never
hold the dealer's face-down card, so nothing built here can reveal it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.blackjack.events import (
    BetPlaced,
    BlackjackSnapshot,
    PlayerResult,
    RoundFinished,
    ShoeReshuffled,
    ShoeState,
    TablePhase,
)
from bot.blackjack.seats import SIDE_BET_NAMES
from bot.blackjack.view import deciding, in_order, is_bot, table_view, total_text
from bot.discord.blackjack.ids import ActionRef, action_id, deal_id, hint_id
from bot.discord.posts import (
    TITLE_LIMIT,
    Post,
)
from bot.discord.table_components import ButtonSpec
from bot.discord.table_look import TablePayload
from bot.render.cards import card_label
from bot.render.models import BlackjackTableView
from bot.render.text import EMBED_DESCRIPTION_LIMIT, blackjack_table_text
from engine.blackjack import INSURANCE_ACTIONS, Action, Rules
from engine.blackjack.hand import hand_value
from engine.blackjack.rules import DoubleRule, Surrender, Ties
from engine.blackjack.sidebets import (
    PERFECT_PAIRS_PAYS,
    TWENTY_ONE_THREE_PAYS,
    perfect_pairs_house_edge,
    twenty_one_three_house_edge,
)
from engine.cards import Card

IMAGE_NAME = "blackjack-table.png"
LOG_LINES = 8
FOOTER = "/blackjack deal to bet · /blackjack rules"
HINT_FOOTER = " · /blackjack hint"

RESULT_COLOUR = 0xD4A017
WARNING_COLOUR = 0xC0392B

DEAL_NOW = "Deal now"
HINT = "Hint"
_STYLES = {
    Action.HIT: discord.ButtonStyle.primary,
    Action.STAND: discord.ButtonStyle.success,
    Action.DOUBLE: discord.ButtonStyle.secondary,
    Action.SPLIT: discord.ButtonStyle.secondary,
    Action.SURRENDER: discord.ButtonStyle.danger,
    Action.INSURE: discord.ButtonStyle.primary,
    Action.EVEN_MONEY: discord.ButtonStyle.success,
    Action.NO_INSURANCE: discord.ButtonStyle.secondary,
}


BUTTON_LABEL_LIMIT = 80
"""Discord's longest button label."""


def escape(text: str) -> str:
    """A name or line safe in Discord markdown (mentions are never allowed to ping anyway)."""
    return discord.utils.escape_markdown(text)


def cards_text(cards: Sequence[Card]) -> str:
    """``A♠ 10♥``: cards for people to read."""
    return " ".join(card_label(card) for card in cards)


def _cap(text: str, limit: int = EMBED_DESCRIPTION_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----- the table message ----------------------------------------------------------------------


def table_payload(
    snapshot: BlackjackSnapshot,
    log: Sequence[str] = (),
    *,
    hints: bool = True,
    finished: bool = False,
    cancelled: str | None = None,
    held: bool = False,
) -> TablePayload[BlackjackTableView] | None:
    """The table message of ``snapshot``'s round (None when nobody has bet yet).

    A ``finished`` round (or one ``cancelled`` for the reason given) has no buttons and no
    countdown.
    """
    view = table_view(snapshot)
    if view is None:
        return None
    live = not finished and cancelled is None
    text = blackjack_table_text(view)
    if snapshot.shoe is not None:
        text += "\n" + shoe_line(snapshot.shoe)
    if log:
        lines = "\n".join(escape(line) for line in log[-LOG_LINES:])
        extra = f"\n\n**This round**\n{lines}"
        if len(text) + len(extra) <= EMBED_DESCRIPTION_LIMIT:
            text += extra
    if cancelled is not None:
        content = f"This round was cancelled ({escape(cancelled)}): {refund_words(held)}"
    elif finished:
        content = "Round over: the results are below. `/blackjack deal` to play again."
    else:
        content = turn_line(snapshot)
    round_text = f"Round #{snapshot.round_id}" if snapshot.round_id else "Blackjack"
    return TablePayload(
        image_name=IMAGE_NAME,
        content=content,
        title=escape(snapshot.table_name)[:TITLE_LIMIT],
        description=text,
        footer=FOOTER + (HINT_FOOTER if hints else ""),
        view=view,
        buttons=tuple(table_buttons(snapshot, hints=hints)) if live else (),
        alt_text=f"Blackjack table {snapshot.table_name}: {round_text}, {view.phase.value}"[:1024],
    )


def _mention_list(user_ids: Sequence[int]) -> str:
    mentions = [f"<@{user_id}>" for user_id in user_ids]
    if len(mentions) <= 1:
        return "".join(mentions)
    return ", ".join(mentions[:-1]) + " and " + mentions[-1]


def turn_line(snapshot: BlackjackSnapshot) -> str:
    """What the table waits for: bets (with the deal countdown), insurance, or a player's
    decision (with the time-out countdown)."""
    countdown = f"<t:{int(snapshot.deadline)}:R>" if snapshot.deadline is not None else ""
    if snapshot.phase is TablePhase.BETTING:
        when = f"The cards are dealt {countdown}" if countdown else "The cards come soon"
        return (
            f"Bets are open: `/blackjack deal` to join this round. {when}, or as soon as a "
            f"player presses **{DEAL_NOW}**."
        )
    if snapshot.phase is TablePhase.IDLE:
        return "No round is being played: `/blackjack deal` to start one."
    offers = deciding(snapshot)
    game = snapshot.view
    bot = snapshot.to_act_user
    if not offers and bot is not None and is_bot(snapshot, bot):
        player = snapshot.player(bot)
        return f"▶ {escape(player.name if player else 'A bot')} (a bot) is thinking…"
    if not offers or game is None:
        return "The dealer plays…"
    timeout = f" · times out {countdown}" if countdown else ""
    if any(actions & INSURANCE_ACTIONS for actions in offers.values()):
        return (
            f"The dealer shows an ace. Insurance? {_mention_list(list(offers))} "
            f"{'decides' if len(offers) == 1 else 'decide'}{timeout}"
        )
    user_id = next(iter(offers))
    line = f"▶ <@{user_id}> to act"
    if game.to_act is not None:
        seat_no, hand_no = game.to_act
        seat = next((seat for seat in game.seats if seat.seat == seat_no), None)
        if seat is not None and hand_no < len(seat.hands):
            hand = seat.hands[hand_no]
            where = f"hand {hand_no + 1}: " if len(seat.hands) > 1 else ""
            line += f" ({where}{total_text(hand.cards)} against the dealer's "
            line += f"{cards_text(game.dealer.cards[:1])})"
    return line + timeout


def table_buttons(snapshot: BlackjackSnapshot, *, hints: bool = True) -> list[ButtonSpec]:
    """Deal now while bets are open; then the decisions legal for whoever decides now (only
    those), and Hint when the table allows hints."""
    round_id = snapshot.round_id
    if round_id is None:
        return []
    if snapshot.phase is TablePhase.BETTING:
        return [ButtonSpec(deal_id(round_id), DEAL_NOW, discord.ButtonStyle.primary, 0)]
    offers = deciding(snapshot)
    if not offers:
        return []
    legal: frozenset[Action] = frozenset().union(*offers.values())
    ref = ActionRef(round_id, snapshot.step)
    buttons = [
        ButtonSpec(action_id(ref, action), _label(snapshot, offers, action), _STYLES[action], 0)
        for action in in_order(legal)
    ]
    if hints:
        buttons.append(ButtonSpec(hint_id(round_id), HINT, discord.ButtonStyle.secondary, 1))
    return buttons


def _label(
    snapshot: BlackjackSnapshot, offers: Mapping[int, frozenset[Action]], action: Action
) -> str:
    """The button's label; a choice that only some of the players deciding have (insurance
    for some, even money for others) names whose it is, so each sees their own."""
    takers = [user_id for user_id, actions in offers.items() if action in actions]
    if len(takers) == len(offers):
        return action.label
    names = {player.user_id: player.name for player in snapshot.players}
    whose = ", ".join(names.get(user_id, "?") for user_id in takers)
    return f"{action.label} · {whose}"[:BUTTON_LABEL_LIMIT]


def bet_line(event: BetPlaced) -> str:
    sides = ", ".join(
        f"{name} {event.side_bets[reason]:,}"
        for reason, name in SIDE_BET_NAMES.items()
        if reason in event.side_bets
    )
    return f"{event.name} bets {event.amount:,}" + (f" (side bets: {sides})" if sides else "")


# ----- posts ----------------------------------------------------------------------------------


def _result_line(result: PlayerResult) -> str:
    net = f"{result.net:+,}" if result.net else "±0"
    name = escape(result.name) + (" (bot)" if result.bot else "")
    head = f"**{name}** {net} (bet {result.staked:,}, paid {result.payout:,})"
    line = head + (": " + " · ".join(result.lines) if result.lines else "")
    if result.grades:
        line += "\n  Trainer: " + " · ".join(result.grades)
    return line


def shoe_line(shoe: ShoeState) -> str:
    """The shoe as a card counter reads it: cards left, the discards, the last reshuffle."""
    if shoe.continuous:
        return f"Shoe: {shoe.decks} deck{'s' if shoe.decks > 1 else ''}, reshuffled every round."
    line = (
        f"Shoe: {shoe.cards_left:,} of {shoe.size:,} cards left · {shoe.discards:,} dealt "
        f"({shoe.discards / shoe.size:.0%})"
    )
    if shoe.shuffled_round is not None:
        line += f" · shuffled before round #{shoe.shuffled_round}"
        if shoe.shuffled_at is not None:
            line += f" (<t:{int(shoe.shuffled_at)}:R>)"
    return line


def reshuffle_post(event: ShoeReshuffled) -> Post:
    """The shoe was shuffled: the running count starts again from zero."""
    shoe = event.shoe
    return Post(
        description=(
            f"🔀 The shoe is reshuffled ({shoe.decks} deck{'s' if shoe.decks > 1 else ''}, "
            f"{shoe.size:,} cards) before round #{event.round_id}: counts start again from 0."
        )
    )


def result_post(event: RoundFinished) -> Post:
    """The round's results: the dealer's hand, then each player's net and every hand's payout."""
    lines = []
    game = event.snapshot.view
    if game is not None and game.dealer.cards:
        dealer = game.dealer.cards
        natural = len(dealer) == 2 and hand_value(dealer).total == 21
        lines.append(f"Dealer: {cards_text(dealer)} ({total_text(dealer, natural=natural)})")
    lines.extend(_result_line(result) for result in event.results)
    return Post(
        title=f"Round #{event.round_id} · Results",
        description=_cap("\n".join(lines)),
        colour=RESULT_COLOUR,
    )


def refund_words(held: bool) -> str:
    """What became of a cancelled round's bets."""
    if held:
        return "its bets are held in the round and go back to their wallets when Felt restarts."
    return "every bet is back in its wallet."


def cancelled_post(
    round_id: int, reason: str, refunds: Mapping[int, int] | None = None, *, held: bool = False
) -> Post:
    """A round refunded (a shutdown, a settlement storage refused, or found unfinished at
    startup)."""
    text = f"Round #{round_id} was cancelled ({escape(reason)}): {refund_words(held)}"
    if refunds:
        text += "\nRefunded: " + " · ".join(
            f"<@{user_id}> {amount:,}" for user_id, amount in sorted(refunds.items())
        )
    return Post(description=_cap(text), colour=WARNING_COLOUR)


# ----- /blackjack rules -----------------------------------------------------------------------


def rules_lines(rules: Rules) -> list[str]:
    """The table's rules in plain words, one per line."""
    lines = []
    decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    if rules.reshuffle_every_round:
        lines.append(f"{decks}, shuffled before every round.")
    else:
        lines.append(f"{decks}, reshuffled once about {rules.penetration:.0%} has been dealt.")
    numerator, denominator = rules.blackjack_pays.ratio
    lines.append(
        f"A blackjack (an ace and a ten-value card as your first two cards) pays "
        f"{numerator} to {denominator}."
    )
    lines.append(
        "The dealer hits soft 17." if rules.h17 else "The dealer stands on every 17, soft or hard."
    )
    if rules.peek:
        lines.append(
            "The dealer checks for blackjack under an ace or a ten: if the dealer has it, you "
            "lose only your first bet."
        )
    else:
        lines.append(
            "No hole card: the dealer takes a second card after the players, and a dealer "
            "blackjack then takes doubles and splits too."
        )
    return lines + _player_option_lines(rules)


def _player_option_lines(rules: Rules) -> list[str]:
    """Doubling, splitting, surrender, insurance and ties, in plain words."""
    lines = []
    doubling = {
        DoubleRule.ANY: "You may double down on any first two cards",
        DoubleRule.NINE_TO_ELEVEN: "You may double down on a hard 9, 10 or 11",
        DoubleRule.TEN_TO_ELEVEN: "You may double down on a hard 10 or 11",
    }
    if rules.double is DoubleRule.NONE:
        lines.append("No doubling down.")
    else:
        after = "also after a split" if rules.das else "but not after a split"
        lines.append(f"{doubling[rules.double]}, {after}: one more card for twice the bet.")
    if rules.max_hands == 1:
        lines.append("No splitting.")
    else:
        aces = "split aces may be split again" if rules.resplit_aces else "aces split only once"
        hits = "and played on" if rules.hit_split_aces else "each get one card"
        lines.append(
            f"You may split a pair into up to {rules.max_hands} hands ({aces}; split aces {hits})."
        )
    if rules.surrender is Surrender.LATE:
        lines.append(
            "Late surrender: give up your first two cards and get half your bet back (once the "
            "dealer has no blackjack)."
        )
    else:
        lines.append("No surrender.")
    if rules.insurance:
        lines.append(
            "Insurance against a dealer ace costs half your bet and pays 2 to 1; holding a "
            "blackjack, you are offered even money instead."
        )
    else:
        lines.append("No insurance.")
    if rules.ties is Ties.LOSE:
        lines.append("Ties lose (a blackjack against the dealer's blackjack still pushes).")
    else:
        lines.append("Ties push: your bet comes back.")
    lines.append("Payouts worth a fraction of a chip are rounded down.")
    return lines


def side_bet_lines(rules: Rules, max_side_bet: int) -> list[str]:
    """Each side bet the table offers: its pay table and its exact house edge for a fresh shoe
    (the engine counts every deal)."""
    lines = []
    if rules.side_21_3 is not None:
        table = rules.side_21_3
        pays = " · ".join(
            f"{category.label} {multiple} to 1"
            for category, multiple in sorted(
                TWENTY_ONE_THREE_PAYS[table].items(), key=lambda item: -item[0]
            )
        )
        edge = float(twenty_one_three_house_edge(rules.decks, table)) * 100
        lines.append(
            f"**21+3** ({table.value.replace('_', '-')}: your two cards and the dealer's up card "
            f"as a poker hand): {pays}. House edge **{edge:.2f}%**."
        )
    if rules.perfect_pairs:
        pays = " · ".join(
            f"{kind.label} {multiple} to 1"
            for kind, multiple in sorted(PERFECT_PAIRS_PAYS.items(), key=lambda item: -item[0])
        )
        edge = float(perfect_pairs_house_edge(rules.decks)) * 100
        lines.append(f"**Perfect Pairs** (your two cards): {pays}. House edge **{edge:.2f}%**.")
    if lines:
        lines.append(
            f"Side bets are 1 to {max_side_bet:,} chips, placed with `/blackjack deal` and "
            "settled on the opening cards."
        )
    return lines


def house_edge_line(edge: float | None) -> str:
    if edge is None:
        return "The house edge could not be worked out right now."
    if edge >= 0:
        return (
            f"House edge with basic strategy: **{edge:.2f}%** (on average the house keeps "
            f"{edge:.2f} chips of every 100 you bet)."
        )
    return (
        f"With basic strategy the player has the edge: **{-edge:.2f}%** (on average you win "
        f"{-edge:.2f} chips of every 100 you bet)."
    )
