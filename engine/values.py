"""Faster construction of the frozen value classes the game loops build at every action.

``dataclasses`` gives a frozen class an ``__init__`` that stores each field with
``object.__setattr__(self, "name", value)``: a generic call that finds the field's slot by its
name, for every field of every instance. The Hold'em engine builds a ``LegalActions`` (eleven
fields) and a ``PlayerActed`` event at every action, and a hand holds some forty events; those
stores were about a tenth of a random hand's time in ``bench/holdem_engine.py``.
``quick_init`` gives such a class an ``__init__`` that stores each field straight into its
slot, through the slot's own descriptor: the same parameters, defaults, values and frozenness,
in about half the time. Nothing else about the class changes (``repr``, equality, hashing,
pickling, ``dataclasses.replace``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of a frozen, slotted dataclass by one that fills the slots
    directly. Apply it above ``@dataclass(frozen=True, slots=True)``; a class with a
    ``__post_init__``, a default factory, an ``InitVar`` or a field left out of ``__init__``
    is refused (the generated code would do more than store values)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__ that quick_init would skip")
    fields: tuple[dataclasses.Field[Any], ...] = dataclasses.fields(cls)  # type: ignore[arg-type]
    namespace: dict[str, Any] = {}
    parameters = []
    for field in fields:
        if not field.init or field.kw_only or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name} is not a plain positional field")
        namespace[f"_store_{field.name}"] = getattr(cls, field.name).__set__
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            parameters.append(f"{field.name}=_default_{field.name}")
    stores = "".join(f"    _store_{field.name}(self, {field.name})\n" for field in fields)
    source = f"def __init__(self, {', '.join(parameters)}):\n{stores or '    pass'}\n"
    exec(source, namespace)  # the code is built above from the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
