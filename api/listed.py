"""What the API lists: public tournaments that are not drafts, what they are made of, the
public seasons, and the ratings their games make.

By the rule the home page lists tournaments by, the models' `listed()`
(`tournaments.models.visibility`): public and not a draft. A private tournament never appears,
not even as a count, nor through a player who played in it; a draft (public or not) neither,
though its page opens by its address for whoever knows it (`tournaments.access.can_view`): the
API is read by programs that list everything, so it shows only what the site lists. Nobody
logs in to the API: every client sees the same data.

A season is listed when it is public (a private one is unknown, as on the site); it counts
public tournaments only (`Season.counts`), and the API names the listed ones among them. A
rating is shown from the rated games of listed tournaments alone, as a player's public page
shows it from the public ones (`seasons.ratings.rating_card`).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext

from seasons.models import RatingChange, Season
from tournaments.models import Session, Table, Tournament


def tournament(slug: str) -> Tournament:
    """The listed tournament of that address, or 404 (private and draft ones look unknown)."""
    found = Tournament.objects.listed().select_related("club").filter(slug=slug).first()
    if found is None:
        raise Http404(gettext("No such tournament."))
    return found


def session(tournament: Tournament, number: int) -> Session:
    found = tournament.sessions.filter(number=number).first()
    if found is None:
        raise Http404(gettext("No such session."))
    # The same tournament object: its rule set is asked of it, without a query.
    found.tournament = tournament
    return found


def tables(session: Session) -> QuerySet[Table]:
    return session.tables.select_related("game").order_by("number")


def season(slug: str) -> Season:
    """The public season of that address, or 404 (a private one looks unknown)."""
    found = Season.objects.listed().select_related("club").filter(slug=slug).first()
    if found is None:
        raise Http404(gettext("No such season."))
    return found


def rating_changes() -> QuerySet[RatingChange]:
    """The rating's rows of the listed tournaments' games: what a rating is shown from."""
    return RatingChange.objects.filter(
        game__table__session__tournament__in=Tournament.objects.listed()
    )
