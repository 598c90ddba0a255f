"""Model instances from the rows of a hand-written join: the three reads of a round's submission.

A referee's round reads the session's user (`tournaments.backends`), the table it goes to (with
its session, tournament, game and referee) for the access check, then the game with its seats
and players under the write's lock. Through `select_related` and `get()`, building each
statement's SQL cost three times running it, and they made a submission 3.9× its floor against
a goal of 3× (`bench hotpath`). Here each is one parameterised statement whose columns come
from the models' own fields, and each model's columns become an instance through
`Model.from_db`, as the ORM's rows do, with the values converted as the ORM converts them:
only public API, no compiled query kept anywhere.

A kind of field this module does not know is refused at a join's first read, and
`tests/tournaments/test_rows.py` holds every instance equal, field by field and type by type,
to the one `select_related` loads, on SQLite and PostgreSQL: a model change that these reads
would get wrong fails there, not on a referee's phone.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

Convert = Callable[[Any, BaseDatabaseWrapper], Any]

# The kinds whose columns both databases' drivers give as the ORM does: SQLite's converts
# the columns Django declares bool and date (its connection parses declared types).
AS_READ = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "CharField",
        "SlugField",
        "TextField",
        "BooleanField",
        "DateField",
    }
)


def as_datetime(value: Any, connection: BaseDatabaseWrapper) -> datetime | None:
    """Aware, in UTC: SQLite keeps Django's times naive in UTC (the site sets no database
    TIME_ZONE), PostgreSQL gives them aware."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def as_uuid(value: Any, connection: BaseDatabaseWrapper) -> Any:
    # SQLite keeps a UUID as its 32 hex digits.
    return uuid.UUID(value) if isinstance(value, str) else value


BY_KIND: dict[str, Convert] = {"DateTimeField": as_datetime, "UUIDField": as_uuid}


def converter(field: Field) -> Convert | None:
    """How a column of `field` becomes the value the ORM would give: by its kind (a foreign
    key's is its target's), then the field's own `from_db_value` (a JSONField's parse)."""
    kind_of = field
    while kind_of.is_relation:
        kind_of = kind_of.target_field  # type: ignore[attr-defined]
    kind = kind_of.get_internal_type()
    by_kind = BY_KIND.get(kind)
    own = getattr(field, "from_db_value", None)
    if by_kind is None and own is None and kind not in AS_READ:
        raise TypeError(
            f"{field.model.__name__}.{field.name}: a {kind} is not read by tournaments.models.rows"
        )
    if own is None:
        return by_kind
    if by_kind is None:
        return lambda value, connection: own(value, None, connection)
    return lambda value, connection: own(by_kind(value, connection), None, connection)


class Part:
    """One model's columns in a join, under `alias`: every concrete field, in order."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model, self.alias = model, alias

    @cached_property
    def fields(self) -> list[Field]:
        # Read once the models are all loaded (a join is declared beside its models).
        return [
            field  # type: ignore[misc]
            for field in self.model._meta.get_fields()
            if field.concrete and not field.many_to_many
        ]

    @cached_property
    def columns(self) -> tuple[str, ...]:
        return tuple(field.column for field in self.fields)

    @cached_property
    def names(self) -> list[str]:
        return [field.attname for field in self.fields]

    @cached_property
    def converters(self) -> tuple[Convert | None, ...]:
        return tuple(converter(field) for field in self.fields)

    @cached_property
    def pk_index(self) -> int:
        return self.names.index(self.model._meta.pk.attname)

    def select(self, quote: Callable[[str], str]) -> list[str]:
        return [f"{self.alias}.{quote(column)}" for column in self.columns]

    def instance(
        self, values: Sequence[Any], connection: BaseDatabaseWrapper, seen: dict[Any, Model]
    ) -> Model | None:
        """The instance of these columns (None for an outer join's missing row); one
        instance for each row of the model, however many rows of the join repeat it."""
        pk = values[self.pk_index]
        if pk is None:
            return None
        key = (self.model, pk)
        if key not in seen:
            converted = [
                value if convert is None or value is None else convert(value, connection)
                for convert, value in zip(self.converters, values, strict=True)
            ]
            seen[key] = self.model.from_db(connection.alias, self.names, converted)
        return seen[key]


class Join:
    """The columns of several models in one statement, and the rows as their instances.

    `sql` is the rest of the statement after SELECT's columns: `{alias}` stands for the
    quoted table of the model under that alias (`FROM {t} JOIN {s} ON s.id = t.session_id`).
    """

    def __init__(self, *parts: tuple[type[Model], str], sql: str) -> None:
        self.parts = tuple(Part(model, alias) for model, alias in parts)
        self.sql = sql
        self.statements: dict[str, str] = {}

    def statement(self, connection: BaseDatabaseWrapper) -> str:
        """The statement, quoted for `connection`'s database (made once for each)."""
        if connection.vendor not in self.statements:
            quote = connection.ops.quote_name
            columns = ", ".join(column for part in self.parts for column in part.select(quote))
            tables = {
                part.alias: f"{quote(part.model._meta.db_table)} {part.alias}"
                for part in self.parts
            }
            self.statements[connection.vendor] = f"SELECT {columns} " + self.sql.format(**tables)
        return self.statements[connection.vendor]

    def read(
        self, params: Sequence[Any], *, using: str | None = None, tail: str = ""
    ) -> list[tuple[Model | None, ...]]:
        """Each row as the instances of its models, in the parts' order, from the database
        the first model is read from (or `using`). `tail` ends the statement (a row lock
        where the database has them)."""
        connection = connections[using or router.db_for_read(self.parts[0].model)]
        with connection.cursor() as cursor:
            cursor.execute(self.statement(connection) + tail, params)
            fetched = cursor.fetchall()
        seen: dict[Any, Model] = {}
        rows = []
        for values in fetched:
            start, instances = 0, []
            for part in self.parts:
                end = start + len(part.columns)
                instances.append(part.instance(values[start:end], connection, seen))
                start = end
            rows.append(tuple(instances))
        return rows
