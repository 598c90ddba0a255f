"""What the API lists: public tournaments that are not drafts, what they are made of, the
public seasons, and the ratings their games make.

The one place the API decides it, by the rule the home page lists tournaments by
(`tournaments.views.public.home`): public and not a draft. A private tournament never appears,
not even as a count, nor through a player who played in it; a draft (public or not) neither,
though its page opens by its address for whoever knows it (`tournaments.access.can_view`): the
API is read by programs that list everything, so it shows only what the site lists. Nobody
logs in to the API: every client sees the same data.

A season is listed when it is public (a private one is unknown, as on the site); it counts
public tournaments only (`Season.counts`), and the API names the listed ones among them. A
rating is shown from the rated games of listed tournaments alone, as a player's public page
shows it from the public ones (`tournaments.ratings.rating_card`).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from tournaments.models import (
    Player,
    RatingChange,
    Registration,
    Season,
    Seat,
    Session,
    Table,
    Tournament,
)


def tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(is_public=True).exclude(status=Tournament.Status.DRAFT)


def tournament(slug: str) -> Tournament:
    """The listed tournament of that address, or 404 (private and draft ones look unknown)."""
    found = tournaments().select_related("club").filter(slug=slug).first()
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


def players() -> QuerySet[Player]:
    """Players seated at a table of, or registered in, a listed tournament."""
    listed = tournaments()
    return Player.objects.filter(
        Exists(Seat.objects.filter(player=OuterRef("pk"), table__session__tournament__in=listed))
        | Exists(Registration.objects.filter(player=OuterRef("pk"), tournament__in=listed))
    )


def tables(session: Session) -> QuerySet[Table]:
    return session.tables.select_related("game").order_by("number")


def seasons() -> QuerySet[Season]:
    return Season.objects.filter(is_public=True)


def season(slug: str) -> Season:
    """The public season of that address, or 404 (a private one looks unknown)."""
    found = seasons().select_related("club").filter(slug=slug).first()
    if found is None:
        raise Http404(gettext("No such season."))
    return found


def rating_changes() -> QuerySet[RatingChange]:
    """The rating's rows of the listed tournaments' games: what a rating is shown from."""
    return RatingChange.objects.filter(game__table__session__tournament__in=tournaments())
