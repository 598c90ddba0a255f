"""ORM queries compiled once per process, then run with new parameters.

A select_related query's SQL costs more to build than to run on the busiest requests (a
round's submission: the access check's table and the game's locked seats, issue 14). A
`Compiled` query is written by the ORM once, and its rows still come back as the ORM's:
the same converters, the same model instances with their related objects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, models
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


class Compiled(Generic[M]):
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

    def fetch(self, *params: Any, using: str = "default") -> list[M]:
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
