"""Issue 22: accounts belong to the tournament they were made for (a director reactivated
and reset another director's removed referee); a tournament keeps its creator (a co-director
removed the director who made them); a confirmation keeps the phone it came from (one phone
agreed for every player, unseen).

Existing rows: a tournament's creator is its first director; an account with no rights of
its own that belongs to exactly one tournament is that tournament's (as the people page
treated it until now).
"""

import django.db.models.deletion
import tournaments.models.people
from django.conf import settings
from django.db import migrations, models




def creators_and_origins(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    AccountOrigin = apps.get_model("tournaments", "AccountOrigin")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    directors = Tournament.directors.through
    referees = Tournament.referees.through
    for tournament in Tournament.objects.filter(created_by__isnull=True):
        first = directors.objects.filter(tournament_id=tournament.pk).order_by("pk").first()
        if first is not None:
            Tournament.objects.filter(pk=tournament.pk).update(created_by_id=first.user_id)
    creators = set(Tournament.objects.values_list("created_by_id", flat=True))
    tournaments_of = {}
    for through in (directors, referees):
        for user_id, tournament_id in through.objects.values_list("user_id", "tournament_id"):
            tournaments_of.setdefault(user_id, set()).add(tournament_id)
    plain = User.objects.filter(
        pk__in=[user_id for user_id, held in tournaments_of.items() if len(held) == 1],
        is_staff=False,
        is_superuser=False,
        user_permissions__isnull=True,
        groups__isnull=True,
    ).exclude(pk__in=[pk for pk in creators if pk is not None])
    AccountOrigin.objects.bulk_create(
        AccountOrigin(user_id=user_id, tournament_id=next(iter(tournaments_of[user_id])))
        for user_id in plain.values_list("pk", flat=True)
    )


class Migration(migrations.Migration):

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        ('tournaments', '0017_standings_version'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='created_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='created_tournaments', to=settings.AUTH_USER_MODEL, verbose_name='created by'),
        ),
        migrations.CreateModel(
            name='AccountOrigin',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='origin', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='account')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='made_accounts', to='tournaments.tournament', verbose_name='made for')),
            ],
            options={
                'verbose_name': "account's tournament",
                'verbose_name_plural': "accounts' tournaments",
            },
        ),
        migrations.RunPython(creators_and_origins, migrations.RunPython.noop),
        # The phone a player agreed from (one phone passed round shows on the sheet).
        migrations.AddField(
            model_name='confirmation',
            name='device',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
        # A text-direction control is refused by the forms where it was typed.
        migrations.AlterField(
            model_name='club',
            name='name',
            field=models.CharField(max_length=120, unique=True, validators=[tournaments.models.people.refuse_direction_controls], verbose_name='name'),
        ),
        migrations.AlterField(
            model_name='player',
            name='member_number',
            field=models.CharField(blank=True, max_length=40, validators=[tournaments.models.people.refuse_direction_controls], verbose_name='member number'),
        ),
        migrations.AlterField(
            model_name='player',
            name='name',
            field=models.CharField(max_length=120, validators=[tournaments.models.people.refuse_direction_controls], verbose_name='name'),
        ),
    ]
