"""A member number is one player's, whatever their club (0012 made the data fit)."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_one_player_per_member_number"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="player",
            name="unique_member_number_per_club",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("member_number", ""), _negated=True),
                fields=("member_number",),
                name="unique_member_number",
                violation_error_message="This member number is already another player's.",
            ),
        ),
    ]
