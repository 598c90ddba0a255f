"""Model instances from the rows of a raw join, their values converted by Django's own converters.

A round's submission reads the table it goes to (with its session, tournament, game and
referee) and the game with its seats and players under the write's lock. Through the ORM's
`select_related` each read cost 0.9–1.4 ms of building its SQL against 0.07 ms running it, and
the submission 3.6–4.1× its floor against a goal of 3× (`bench hotpath`, issue 36). So these two
are raw joins; what they read is still the ORM's: each model's concrete fields, each value
through the converters Django's compiler applies (`connection.ops.get_db_converters` and the
field's `get_db_converters`: SQLite's booleans, dates, times and UUIDs, a JSONField's parse),
each instance made by `Model.from_db`. A new field or kind of field needs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

Convert = Callable[[Any, Any, BaseDatabaseWrapper], Any]


class _Reader:
    """A model's concrete fields as one database reads them: names, columns, converters."""

    def __init__(self, model: type[Model], connection: BaseDatabaseWrapper) -> None:
        fields: list[Field] = model._meta.concrete_fields  # type: ignore[assignment]
        self.names = [field.attname for field in fields]
        self.pk_index = self.names.index(model._meta.pk.attname)
        self.columns = [field.get_col(model._meta.db_table) for field in fields]
        # As the ORM's compiler orders them: the database's, then the field's own.
        self.converters: list[list[Convert]] = [
            connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            for column in self.columns
        ]


# (model, database alias) -> its reader, made at the first read (the models all loaded).
_READERS: dict[tuple[type[Model], str], _Reader] = {}


def columns(model: type[Model], alias: str, connection: BaseDatabaseWrapper) -> str:
    """The model's concrete columns under `alias`, in the order `instance` takes them."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


def width(model: type[Model]) -> int:
    """How many columns `columns` gives."""
    return len(model._meta.concrete_fields)


def instance(
    model: type[Model], values: Sequence[Any], connection: BaseDatabaseWrapper
) -> Model | None:
    """The instance of the model's columns in a row, as the ORM makes it (None for an outer
    join's missing row)."""
    key = (model, connection.alias)
    reader = _READERS.get(key) or _READERS.setdefault(key, _Reader(model, connection))
    if values[reader.pk_index] is None:
        return None
    converted = []
    for column, converters, value in zip(reader.columns, reader.converters, values, strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, reader.names, converted)


def instances(
    models: Sequence[type[Model]], row: Sequence[Any], connection: BaseDatabaseWrapper
) -> list[Model | None]:
    """A row of several models' `columns`, one after the other, as their instances."""
    found, start = [], 0
    for model in models:
        end = start + width(model)
        found.append(instance(model, row[start:end], connection))
        start = end
    return found
