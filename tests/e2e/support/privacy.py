"""The privacy check: every payload the bot sent, judged by who sees it, must show only the cards
that member may see."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.holdem.events import HandFinished, HandsTabled, HoleCards, StreetDealt
from engine.cards import Card, parse_cards
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.rest import RecordedRequest
from tests.e2e.support.holdem import HoldemWorld


def every_card_token(text: str) -> Iterator[Card]:
    """Every card written in ``text``, as ``A♠``/``10♥`` or ``As``/``Th``."""
    for match in re.finditer(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([♣♦♥♠cdhs])(?![0-9A-Za-z])", text):
        rank = "T" if match.group(1) == "10" else match.group(1)
        suit = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}.get(match.group(2), match.group(2))
        yield parse_cards(rank + suit)[0]


HAND_NUMBER = re.compile(r"Hand #(\d+)")
EPHEMERAL = 1 << 6


@dataclasses.dataclass
class PrivacyReport:
    """What ``check_privacy`` looked at and what it found."""

    public_payloads: int = 0
    public_with_cards: int = 0
    private_payloads: int = 0
    problems: list[str] = dataclasses.field(default_factory=list)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _sections(body: Any, files: Sequence[tuple[str, int]]) -> list[str]:
    """A payload's readable parts, each judged on its own: content, each embed, the components,
    and the attachments (file names and alt text)."""
    if not isinstance(body, Mapping):
        return [" ".join(name for name, _size in files)] if files else []
    inner = body.get("data")
    data: Mapping[str, Any] = inner if isinstance(inner, Mapping) else body
    sections = [str(data.get("content") or "")]
    sections += ["\n".join(_strings(embed)) for embed in data.get("embeds") or []]
    sections.append("\n".join(_strings(data.get("components") or [])))
    sections.append("\n".join(_strings(data.get("attachments") or [])))
    sections.append(" ".join(name for name, _size in files))
    if "title" in data:  # a modal
        sections.append(str(data["title"]))
    return [section for section in sections if section]


def _by_hand(sections: list[str]) -> list[str]:
    """Each section cut where a heading names a hand (``Hand #N``): the table message tells
    the hand in play and the results of the hands before it, each under its own number, and
    each part is judged against the hand it names (what comes before the second number goes
    with the first, as in a section that names one hand)."""
    parts: list[str] = []
    for section in sections:
        starts = [found.start() for found in HAND_NUMBER.finditer(section)][1:]
        bounds = [0, *starts, len(section)]
        parts += [section[a:b] for a, b in itertools.pairwise(bounds) if a < b]
    return parts


def _is_private(fake: FakeDiscord, request: RecordedRequest) -> tuple[bool, int | None]:
    """Whether a request's message is seen by one member only, and that member."""
    parts = request.path.split("?")[0].split("/")
    body = request.body if isinstance(request.body, Mapping) else {}
    if request.route.startswith(("POST /channels/", "PATCH /channels/")):
        channel = fake.channels.get(int(parts[parts.index("channels") + 1]))
        if channel is not None and channel.recipient is not None:
            return True, channel.recipient.id
        return False, None
    if request.route == "POST /interactions/{interaction_id}/{token}/callback":
        interaction = fake.interactions.get(int(parts[parts.index("interactions") + 1]))
        user = interaction.user.id if interaction is not None else None
        inner = body.get("data")
        data: Mapping[str, Any] = inner if isinstance(inner, Mapping) else {}
        if body.get("type") == 9:  # a modal is shown to its member only
            return True, user
        if body.get("type") == 7 and interaction is not None and interaction.message is not None:
            return interaction.message.ephemeral, user
        return bool(int(data.get("flags") or 0) & EPHEMERAL), user
    token = parts[parts.index("webhooks") + 2]
    interaction = fake.interactions_by_token.get(token)
    user = interaction.user.id if interaction is not None else None
    if request.method == "POST":
        return bool(int(body.get("flags") or 0) & EPHEMERAL), user
    target = parts[-1]
    if interaction is None:
        return False, None
    messages = [interaction.original, *interaction.followups]
    for message in messages:
        if message is not None and (
            (target == "@original" and message is interaction.original) or str(message.id) == target
        ):
            return message.ephemeral, user
    return False, user


MESSAGE_ROUTES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /interactions/{interaction_id}/{token}/callback",
    "POST /webhooks/{application_id}/{token}",
    "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
)


@dataclasses.dataclass(frozen=True)
class RailRule:
    """Who watches on the rail, and whose cards the rail must never see (they did not allow it).

    A DM to a watcher may name the hole cards of one hand only once that hand has finished
    (its result was published before the DM was sent): never the hand in progress."""

    watchers: frozenset[int]
    hidden_players: frozenset[int]


def check_privacy(
    fake: FakeDiscord, played: HoldemWorld, rail: RailRule | None = None
) -> PrivacyReport:
    """Every payload the bot sent, judged by who sees it.

    - public (channel messages, edits, public interaction answers): a section naming cards must
      name exactly one hand (``Hand #N``), and each card must be on that hand's board or among
      the cards turned face up in it, and not sent before they were turned up;
    - private (DMs, ephemeral answers): only the member's own hole cards, the board and shown
      cards of the hand named.
    """
    report = PrivacyReport()
    holes = {hand: cards for (_table, hand), cards in played.hole_cards.items()}
    own: dict[tuple[int, int], set[Card]] = {}
    for dealt_to in played.of(HoleCards):
        own[(dealt_to.hand_id, dealt_to.user_id)] = set(dealt_to.cards)
    shown_at: dict[int, float] = {}
    finished_at: dict[int, float] = {}
    for (_channel, event), when in zip(played.events, played.times, strict=True):
        if isinstance(event, HandsTabled | HandFinished):
            shown_at.setdefault(event.hand_id, when)
        if isinstance(event, HandFinished):
            finished_at.setdefault(event.hand_id, when)
    boards: dict[int, set[Card]] = {}
    for street in played.of(StreetDealt):
        boards.setdefault(street.hand_id, set()).update(street.board)
    for request in fake.requests:
        if request.route not in MESSAGE_ROUTES or request.status >= 400:
            continue
        private, user = _is_private(fake, request)
        if private:
            report.private_payloads += 1
        else:
            report.public_payloads += 1
        for section in _by_hand(_sections(request.body, request.files)):
            cards = set(every_card_token(section))
            if not cards:
                continue
            numbers = set(HAND_NUMBER.findall(section))
            where = f"{request.method} {request.path} at {request.at:.3f}: {section[:120]!r}"
            if len(numbers) != 1:
                report.problems.append(f"cards without one hand number in {where}")
                continue
            hand = int(numbers.pop())
            dealt = {card for pair in holes.get(hand, []) for card in pair}
            shown = played.shown_cards(hand)
            allowed = boards.get(hand, set()) | shown
            if private and rail is not None and user in rail.watchers:
                if request.at < finished_at.get(hand, float("inf")):
                    report.problems.append(f"the rail saw hand #{hand} in progress in {where}")
                hidden = {c for p in rail.hidden_players for c in own.get((hand, p), set())}
                allowed |= dealt - hidden
            elif private:
                allowed |= own.get((hand, user or 0), set())
            else:
                report.public_with_cards += 1
            for card in sorted(cards):
                if card in allowed:
                    if not private and card in dealt and request.at < shown_at.get(hand, 0.0):
                        report.problems.append(f"{card} shown before showdown in {where}")
                    continue
                kind = "hole card" if card in dealt else "card"
                report.problems.append(f"{kind} {card} of hand #{hand} leaked in {where}")
    return report
