"""Seasons (tournaments ranked together) ← ratings (the skill rating, a row per player per
rated game)."""

from __future__ import annotations

from seasons.models.ratings import PlayerRating, RatingChange, RatingLedger
from seasons.models.seasons import Season, SeasonTournament

__all__ = ["PlayerRating", "RatingChange", "RatingLedger", "Season", "SeasonTournament"]
