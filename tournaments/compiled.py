"""Statements written once per process, then run with new values: the busiest requests' own.

Building a statement with the ORM costs more than running it on a round's submission (issue
14): the access check's table, the game's locked seats, the round, its hands, the seats'
totals, the game's state and the audit log. A `Select` is a query the ORM compiles once, whose
rows come back as the ORM's (the same converters, the same instances with their related
objects); an `Insert` or an `Update` writes a model's columns, each value prepared by its
field as the ORM prepares it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models import query

# How Django's own ModelIterable fills a row's related objects (not in the stubs).
get_related_populators = query.get_related_populators  # type: ignore[attr-defined]

M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class _Statement:
    """What the compiler made of the query: the SQL, and how its rows become instances."""

    sql: str
    model: type[Any]
    attnames: list[str]
    fields: slice
    populators: list[Any]
    converters: list[tuple[int, list[Any], Any]]


class Select(Generic[M]):
    """The query `build(*params)` makes, compiled on its first run on each database.

    `sample` are parameters to compile with, each different: the compiled statement must
    take exactly them, in that order (checked), so that a later run's parameters go where
    they belong.
    """

    def __init__(self, build: Callable[..., query.QuerySet[M]], *sample: Any) -> None:
        self._build = build
        self._sample = sample
        self._statements: dict[str, _Statement] = {}

    def _statement(self, using: str) -> _Statement:
        statement = self._statements.get(using)
        if statement is None:
            statement = self._statements[using] = self._compile(using)
        return statement

    def _compile(self, using: str) -> _Statement:
        compiler = self._build(*self._sample).using(using).query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if tuple(params) != self._sample:
            raise ValueError(f"the query takes {params!r}, not the sample {self._sample!r}")
        # As Django's ModelIterable reads a row: the model's own columns, then the related
        # objects' (select_related), each column through its converters.
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        converters = compiler.get_converters([column[0] for column in select])
        return _Statement(
            sql=sql,
            model=klass_info["model"],
            attnames=[column[0].target.attname for column in select[fields[0] : fields[-1] + 1]],
            fields=slice(fields[0], fields[-1] + 1),
            populators=get_related_populators(klass_info, select, using),
            converters=[
                (position, functions, expression)
                for position, (functions, expression) in converters.items()
            ],
        )

    def fetch(self, *params: Any, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        """The query's instances for these parameters (one query)."""
        statement = self._statement(using)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            rows = cursor.fetchall()
        found = []
        for fetched in rows:
            row = list(fetched)
            for position, functions, expression in statement.converters:
                value = row[position]
                for function in functions:
                    value = function(value, expression, connection)
                row[position] = value
            instance = statement.model.from_db(using, statement.attnames, row[statement.fields])
            for populator in statement.populators:
                populator.populate(row, instance)
            found.append(instance)
        return found


def _fields(model: type[models.Model], names: Sequence[str]) -> list[Any]:
    fields = [model._meta.get_field(name) for name in names]
    for field in fields:
        # A value written as more than a plain parameter (binary, arrays, ranges): the ORM's.
        if hasattr(field, "get_placeholder"):
            raise ValueError(f"{field} is not written as a plain parameter")
    return fields


class Insert(Generic[M]):
    """New rows of `model` (every column but the id), in one statement written once per
    database and number of rows; their ids are read back (RETURNING) and set on them."""

    def __init__(self, model: type[M]) -> None:
        self._model = model
        self._fields = _fields(
            model,
            [
                field.name
                for field in model._meta.local_concrete_fields
                if not field.primary_key and not field.generated
            ],
        )
        self._statements: dict[tuple[str, int], str] = {}

    def _statement(self, using: str, count: int) -> str:
        sql = self._statements.get((using, count))
        if sql is None:
            quote = connections[using].ops.quote_name
            row = f"({', '.join(['%s'] * len(self._fields))})"
            sql = self._statements[using, count] = (
                f"INSERT INTO {quote(self._model._meta.db_table)} "
                f"({', '.join(quote(field.column) for field in self._fields)}) "
                f"VALUES {', '.join([row] * count)} "
                f"RETURNING {quote(self._model._meta.pk.column)}"
            )
        return sql

    def __call__(self, rows: Sequence[M], *, using: str = DEFAULT_DB_ALIAS) -> None:
        if not rows:
            return
        connection = connections[using]
        if not connection.features.can_return_rows_from_bulk_insert:
            # A database without INSERT … RETURNING (SQLite before 3.35): the ORM's way,
            # which reads each row's id back.
            for row in rows:
                row.save(force_insert=True, using=using)
            return
        # As the ORM saves a new row: each field's pre_save (auto_now_add), then its value
        # as the database takes it.
        values = [
            field.get_db_prep_save(field.pre_save(row, True), connection)
            for row in rows
            for field in self._fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(self._statement(using, len(rows)), values)
            ids = cursor.fetchall()
        for row, (pk,) in zip(rows, ids, strict=True):
            row.pk = pk
            row._state.adding = False
            row._state.db = using


class Update(Generic[M]):
    """Columns `fields` of rows of `model`, written by id, with one statement written once per
    database (run once for each row)."""

    def __init__(self, model: type[M], *fields: str) -> None:
        self._model = model
        self._fields = _fields(model, fields)
        self._statements: dict[str, str] = {}

    def _statement(self, using: str) -> str:
        sql = self._statements.get(using)
        if sql is None:
            quote = connections[using].ops.quote_name
            sql = self._statements[using] = (
                f"UPDATE {quote(self._model._meta.db_table)} "
                f"SET {', '.join(f'{quote(field.column)} = %s' for field in self._fields)} "
                f"WHERE {quote(self._model._meta.pk.column)} = %s"
            )
        return sql

    def __call__(self, rows: Sequence[M], *, using: str = DEFAULT_DB_ALIAS) -> None:
        if not rows:
            return
        connection = connections[using]
        # As the ORM saves a row: each field's pre_save (auto_now), then its value as the
        # database takes it.
        values = [
            [
                *(
                    field.get_db_prep_save(field.pre_save(row, False), connection)
                    for field in self._fields
                ),
                row.pk,
            ]
            for row in rows
        ]
        with connection.cursor() as cursor:
            if len(values) == 1:
                cursor.execute(self._statement(using), values[0])
            else:
                cursor.executemany(self._statement(using), values)
