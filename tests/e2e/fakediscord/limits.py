"""Discord's payload limits, checked the way the API does (400, code 50035 "Invalid Form Body").

Each check returns a list of ``FieldError`` (a dotted path such as ``embeds.0.title`` and a
message); ``form_body_error`` nests them the way Discord's JSON does, so discord.py shows
"In embeds.0.title: Must be 256 or fewer in length.".
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL_CHARACTERS = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR_NAME = 256
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
SELECT_PLACEHOLDER = 150
COMPONENTS_V2_TOTAL = 40
TEXT_DISPLAY_TOTAL = 4000
MODAL_TITLE = 45
MODAL_COMPONENTS = 5
TEXT_INPUT_LABEL = 45
TEXT_INPUT_VALUE = 4000
TEXT_INPUT_PLACEHOLDER = 100
FILES_PER_MESSAGE = 10
ATTACHMENT_DESCRIPTION = 1024
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

COMPONENTS_V2_FLAG = 1 << 15
SELECT_TYPES = (3, 5, 6, 7, 8)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One invalid field: where (dotted path) and why."""

    path: str
    code: str
    message: str


def form_body_error(errors: Sequence[FieldError], *, prefix: str = "") -> dict[str, Any]:
    """The JSON body of Discord's 50035 answer, errors nested by path."""
    nested: dict[str, Any] = {}
    for error in errors:
        path = f"{prefix}.{error.path}" if prefix else error.path
        node = nested
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": nested}


def _too_long(path: str, value: Any, limit: int) -> Iterator[FieldError]:
    if isinstance(value, str) and len(value) > limit:
        yield FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _required(path: str) -> FieldError:
    return FieldError(path, "BASE_TYPE_REQUIRED", "This field is required")


def check_message(payload: dict[str, Any], *, file_count: int = 0) -> list[FieldError]:
    """Content, embeds, components and attachment metadata of a message create or edit."""
    errors: list[FieldError] = []
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        errors.append(FieldError("content", "STRING_TYPE_CONVERT", "Could not interpret as str."))
    errors.extend(_too_long("content", content, CONTENT_LIMIT))
    embeds = payload.get("embeds") or []
    errors.extend(_check_embeds(embeds))
    components = payload.get("components") or []
    if int(payload.get("flags") or 0) & COMPONENTS_V2_FLAG:
        errors.extend(_check_components_v2(components))
    else:
        errors.extend(_check_action_rows(components))
    attachments = payload.get("attachments") or []
    if file_count > FILES_PER_MESSAGE:
        errors.append(
            FieldError("files", "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_PER_MESSAGE} or fewer.")
        )
    for index, attachment in enumerate(attachments):
        if isinstance(attachment, dict):
            errors.extend(
                _too_long(
                    f"attachments.{index}.description",
                    attachment.get("description"),
                    ATTACHMENT_DESCRIPTION,
                )
            )
    return errors


def _check_embeds(embeds: Any) -> Iterator[FieldError]:
    if not isinstance(embeds, list):
        yield FieldError("embeds", "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if len(embeds) > EMBEDS_PER_MESSAGE:
        yield FieldError(
            "embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_PER_MESSAGE} or fewer in length."
        )
    total = 0
    for index, embed in enumerate(embeds):
        path = f"embeds.{index}"
        title = embed.get("title")
        description = embed.get("description")
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        yield from _too_long(f"{path}.title", title, EMBED_TITLE)
        yield from _too_long(f"{path}.description", description, EMBED_DESCRIPTION)
        yield from _too_long(f"{path}.footer.text", footer, EMBED_FOOTER)
        yield from _too_long(f"{path}.author.name", author, EMBED_AUTHOR_NAME)
        for text in (title, description, footer, author):
            total += len(text) if isinstance(text, str) else 0
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            yield FieldError(
                f"{path}.fields", "BASE_TYPE_MAX_LENGTH", f"Must be {EMBED_FIELDS} or fewer."
            )
        for field_index, embed_field in enumerate(fields):
            field_path = f"{path}.fields.{field_index}"
            name, value = embed_field.get("name"), embed_field.get("value")
            if not name:
                yield _required(f"{field_path}.name")
            if not value:
                yield _required(f"{field_path}.value")
            yield from _too_long(f"{field_path}.name", name, EMBED_FIELD_NAME)
            yield from _too_long(f"{field_path}.value", value, EMBED_FIELD_VALUE)
            total += len(str(name or "")) + len(str(value or ""))
    if total > EMBED_TOTAL_CHARACTERS:
        yield FieldError(
            "embeds",
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_CHARACTERS}",
        )


def _check_action_rows(rows: Any) -> Iterator[FieldError]:
    if not isinstance(rows, list):
        yield FieldError("components", "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if len(rows) > ACTION_ROWS:
        yield FieldError(
            "components", "BASE_TYPE_MAX_LENGTH", f"Must be {ACTION_ROWS} or fewer in length."
        )
    custom_ids: set[str] = set()
    for index, row in enumerate(rows):
        path = f"components.{index}"
        if row.get("type") != 1:
            yield FieldError(
                f"{path}.type", "UNION_TYPE_CHOICES", "Value must be an action row (type 1)."
            )
            continue
        children = row.get("components") or []
        if not children:
            yield FieldError(
                f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
            )
        selects = [child for child in children if child.get("type") in SELECT_TYPES]
        if selects and len(children) > 1:
            yield FieldError(
                f"{path}.components",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu must be alone in its action row.",
            )
        if len(children) > BUTTONS_PER_ROW:
            yield FieldError(
                f"{path}.components",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {BUTTONS_PER_ROW} or fewer in length.",
            )
        for child_index, child in enumerate(children):
            yield from _check_interactive(child, f"{path}.components.{child_index}", custom_ids)


def _check_interactive(
    component: dict[str, Any], path: str, custom_ids: set[str]
) -> Iterator[FieldError]:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if kind == 2:
        yield from _too_long(f"{path}.label", component.get("label"), BUTTON_LABEL)
        style = component.get("style", 1)
        if style == 5:
            if not component.get("url"):
                yield _required(f"{path}.url")
        elif style != 6 and not custom_id:
            yield _required(f"{path}.custom_id")
        if not component.get("label") and not component.get("emoji"):
            yield FieldError(
                f"{path}.label",
                "BUTTON_COMPONENT_MISSING_LABEL",
                "A button needs a label or emoji.",
            )
    elif kind in SELECT_TYPES:
        if not custom_id:
            yield _required(f"{path}.custom_id")
        yield from _too_long(
            f"{path}.placeholder", component.get("placeholder"), SELECT_PLACEHOLDER
        )
        options = component.get("options") or []
        if kind == 3 and not options:
            yield _required(f"{path}.options")
        if len(options) > SELECT_OPTIONS:
            yield FieldError(
                f"{path}.options",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {SELECT_OPTIONS} or fewer in length.",
            )
        for option_index, option in enumerate(options):
            option_path = f"{path}.options.{option_index}"
            for key in ("label", "value", "description"):
                yield from _too_long(f"{option_path}.{key}", option.get(key), SELECT_OPTION_TEXT)
        for key in ("min_values", "max_values"):
            value = component.get(key)
            if value is not None and not 0 <= int(value) <= SELECT_OPTIONS:
                yield FieldError(
                    f"{path}.{key}", "NUMBER_TYPE_MAX", f"Must be between 0 and {SELECT_OPTIONS}."
                )
    if custom_id is not None:
        yield from _too_long(f"{path}.custom_id", custom_id, CUSTOM_ID)
        if custom_id in custom_ids:
            yield FieldError(
                f"{path}.custom_id",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        custom_ids.add(custom_id)


def _check_components_v2(components: Any) -> Iterator[FieldError]:
    """Layout components: a total count and the text limit; interactive children as above."""
    if not isinstance(components, list):
        yield FieldError("components", "LIST_TYPE_CONVERT", "Must be an array.")
        return
    custom_ids: set[str] = set()
    total = 0
    text = 0
    stack: list[tuple[dict[str, Any], str]] = [
        (component, f"components.{index}") for index, component in enumerate(components)
    ]
    while stack:
        component, path = stack.pop()
        total += 1
        if component.get("type") == 10:
            text += len(str(component.get("content", "")))
        if component.get("type") in (2, *SELECT_TYPES):
            yield from _check_interactive(component, path, custom_ids)
        for index, child in enumerate(component.get("components") or []):
            stack.append((child, f"{path}.components.{index}"))
        if isinstance(component.get("accessory"), dict):
            stack.append((component["accessory"], f"{path}.accessory"))
    if total > COMPONENTS_V2_TOTAL:
        yield FieldError(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {COMPONENTS_V2_TOTAL} or fewer components in total.",
        )
    if text > TEXT_DISPLAY_TOTAL:
        yield FieldError(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            f"Text displays must be {TEXT_DISPLAY_TOTAL} or fewer characters in total.",
        )


def check_modal(data: dict[str, Any]) -> list[FieldError]:
    """A modal callback's ``data``: title, custom_id, 1-5 rows or labels of inputs."""
    errors: list[FieldError] = []
    title = data.get("title")
    if not title:
        errors.append(_required("title"))
    errors.extend(_too_long("title", title, MODAL_TITLE))
    if not data.get("custom_id"):
        errors.append(_required("custom_id"))
    errors.extend(_too_long("custom_id", data.get("custom_id"), CUSTOM_ID))
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS:
        errors.append(
            FieldError(
                "components",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MODAL_COMPONENTS} in length.",
            )
        )
    custom_ids: set[str] = set()
    for index, component in enumerate(components):
        path = f"components.{index}"
        if component.get("type") == 1:
            children = component.get("components") or []
            if len(children) != 1:
                errors.append(
                    FieldError(
                        f"{path}.components",
                        "BASE_TYPE_BAD_LENGTH",
                        "A modal action row holds exactly one text input.",
                    )
                )
            inputs = [(child, f"{path}.components.{i}") for i, child in enumerate(children)]
        elif component.get("type") == 18:
            errors.extend(_too_long(f"{path}.label", component.get("label"), TEXT_INPUT_LABEL))
            errors.extend(
                _too_long(f"{path}.description", component.get("description"), SELECT_OPTION_TEXT)
            )
            inputs = [(component.get("component") or {}, f"{path}.component")]
        elif component.get("type") == 10:
            continue
        else:
            errors.append(
                FieldError(
                    f"{path}.type", "UNION_TYPE_CHOICES", "Must be an action row or a label."
                )
            )
            continue
        for child, child_path in inputs:
            errors.extend(_check_modal_input(child, child_path, custom_ids))
    return errors


def _check_modal_input(
    component: dict[str, Any], path: str, custom_ids: set[str]
) -> Iterator[FieldError]:
    custom_id = component.get("custom_id")
    if not custom_id:
        yield _required(f"{path}.custom_id")
    else:
        yield from _too_long(f"{path}.custom_id", custom_id, CUSTOM_ID)
        if custom_id in custom_ids:
            yield FieldError(
                f"{path}.custom_id",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        custom_ids.add(custom_id)
    if component.get("type") == 4:
        yield from _too_long(f"{path}.label", component.get("label"), TEXT_INPUT_LABEL)
        yield from _too_long(f"{path}.value", component.get("value"), TEXT_INPUT_VALUE)
        yield from _too_long(
            f"{path}.placeholder", component.get("placeholder"), TEXT_INPUT_PLACEHOLDER
        )
        for key in ("min_length", "max_length"):
            value = component.get(key)
            if value is not None and not 0 <= int(value) <= TEXT_INPUT_VALUE:
                yield FieldError(
                    f"{path}.{key}", "NUMBER_TYPE_MAX", f"Must be between 0 and {TEXT_INPUT_VALUE}."
                )
    elif component.get("type") in SELECT_TYPES:
        yield from _check_interactive(component, path, set())


def is_empty_message(payload: dict[str, Any], file_count: int) -> bool:
    """A new message with nothing to show (Discord answers 50006)."""
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or file_count
    )
