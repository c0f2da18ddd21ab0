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

A class with many fields (``LegalActions``: eleven, built at most turns of a random hand) goes
further. A call of a slot's descriptor costs about three times the interpreter's own store into
a slot, which Python specializes only for a class whose attribute stores are the ordinary ones,
not a frozen class's. So its ``__init__`` turns the new instance into an instance of an open
twin (a subclass adding no slots, with ``object``'s ``__setattr__`` and ``__delattr__``), stores
the fields as plain attributes, and turns it back: two class changes cost about as much as four
descriptor calls, so this pays from about eight fields (0.7 us instead of 1.1 us for eleven,
measured in one run). The twin never escapes the ``__init__``, and a subclass of the value keeps
the descriptor stores.
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
    if len(fields) >= _OPEN_TWIN_FROM:
        stores = _through_open_twin(cls, fields, namespace, stores)
    source = f"def __init__(self, {', '.join(parameters)}):\n{stores or '    pass'}\n"
    exec(source, namespace)  # the code is built above from the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


_OPEN_TWIN_FROM = 8
"""Fields from which building through an open twin is faster (see the module docstring)."""


def _through_open_twin(
    cls: type[Any],
    fields: tuple[dataclasses.Field[Any], ...],
    namespace: dict[str, Any],
    stores: str,
) -> str:
    """The body of an ``__init__`` that fills the slots of an instance of exactly ``cls``
    through its open twin, and those of a subclass's instance by ``stores``."""
    twin = type(cls.__name__, (cls,), {
        "__slots__": (),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    })  # fmt: skip
    namespace.update(_cls=cls, _open_twin=twin, _set_attribute=object.__setattr__)
    plain = "".join(f"        self.{field.name} = {field.name}\n" for field in fields)
    indented = "".join(f"    {line}\n" for line in stores.splitlines())
    return (
        "    if type(self) is _cls:\n"
        "        _set_attribute(self, '__class__', _open_twin)\n"
        f"{plain}"
        "        self.__class__ = _cls\n"
        "    else:\n"
        f"{indented}"
    )
