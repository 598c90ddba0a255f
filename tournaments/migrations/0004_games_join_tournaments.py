"""Games, rounds, hands and the audit log join the tournaments app.

They were the models of a `scoring` app, which is now pure Python. Their tables keep their
names (`db_table`), so an existing database changes nothing but Django's bookkeeping: the
models' state moves here, their content types (and so the Directors' permissions) follow,
and a database that never had the tables (a fresh one) gets them created.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


GAME_MODELS = ("game", "gamechange", "round", "hand")

# The models as they are (db_table "scoring_*"), for Django's state only.
STATE = [
    migrations.CreateModel(
        name='Game',
        fields=[
            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
            ('finished', models.BooleanField(default=False)),
            ('ended_at_time_limit', models.BooleanField(default=False)),
            ('finished_at', models.DateTimeField(blank=True, null=True)),
            ('version', models.PositiveIntegerField(default=0)),
            ('signed_off_at', models.DateTimeField(blank=True, null=True)),
            ('signed_off_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='game', to='tournaments.table')),
        ],
        options={
            'db_table': 'scoring_game',
        },
    ),
    migrations.CreateModel(
        name='GameChange',
        fields=[
            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
            ('action', models.CharField(choices=[('record', 'recorded'), ('correct', 'corrected'), ('undo', 'undone'), ('end', 'ended at the time limit'), ('sign_off', 'signed off')], max_length=10)),
            ('round_number', models.PositiveSmallIntegerField(blank=True, null=True)),
            ('at', models.DateTimeField(default=django.utils.timezone.now)),
            ('before', models.JSONField(blank=True, null=True)),
            ('after', models.JSONField(blank=True, null=True)),
            ('reason', models.TextField(blank=True)),
            ('version', models.PositiveIntegerField()),
            ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='tournaments.game')),
            ('user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
        ],
        options={
            'db_table': 'scoring_gamechange',
            'ordering': ['game', '-at', '-pk'],
        },
    ),
    migrations.CreateModel(
        name='Round',
        fields=[
            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
            ('number', models.PositiveSmallIntegerField()),
            ('kind', models.CharField(choices=[('yaniv', 'yaniv'), ('false_yaniv', 'false_yaniv'), ('empty_hand', 'empty_hand'), ('assaf', 'assaf')], max_length=12)),
            ('entered_at', models.DateTimeField(default=django.utils.timezone.now)),
            ('caller', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='tournaments.seat')),
            ('empty_hand', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='tournaments.seat')),
            ('entered_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='tournaments.game')),
        ],
        options={
            'db_table': 'scoring_round',
            'ordering': ['game', 'number'],
        },
    ),
    migrations.CreateModel(
        name='Hand',
        fields=[
            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
            ('hand_total', models.PositiveSmallIntegerField()),
            ('along', models.BooleanField(default=False)),
            ('points', models.IntegerField(default=0)),
            ('reduction', models.PositiveSmallIntegerField(default=0)),
            ('total', models.IntegerField(default=0)),
            ('seat', models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='hands', to='tournaments.seat')),
            ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hands', to='tournaments.round')),
        ],
        options={
            'db_table': 'scoring_hand',
            'ordering': ['round', 'seat__position'],
        },
    ),
    migrations.AddConstraint(
        model_name='game',
        constraint=models.CheckConstraint(condition=models.Q(('ended_at_time_limit', False), ('finished', True), _connector='OR'), name='time_limit_end_is_finished'),
    ),
    migrations.AddConstraint(
        model_name='game',
        constraint=models.CheckConstraint(condition=models.Q(('signed_off_at__isnull', True), ('finished', True), _connector='OR'), name='only_a_finished_game_is_signed_off'),
    ),
    migrations.AddConstraint(
        model_name='gamechange',
        constraint=models.CheckConstraint(condition=models.Q(('action__in', ['record', 'sign_off']), models.Q(('reason', ''), _negated=True), _connector='OR'), name='change_needs_a_reason'),
    ),
    migrations.AddConstraint(
        model_name='round',
        constraint=models.UniqueConstraint(fields=('game', 'number'), name='unique_round_number'),
    ),
    migrations.AddConstraint(
        model_name='round',
        constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='round_number_from_1'),
    ),
    migrations.AddConstraint(
        model_name='round',
        constraint=models.CheckConstraint(condition=models.Q(models.Q(('caller__isnull', True), ('empty_hand__isnull', False), ('kind', 'empty_hand')), models.Q(('caller__isnull', False), ('empty_hand__isnull', True), ('kind__in', ['yaniv', 'false_yaniv', 'assaf'])), _connector='OR'), name='round_has_one_ending'),
    ),
    migrations.AddConstraint(
        model_name='hand',
        constraint=models.UniqueConstraint(fields=('round', 'seat'), name='unique_hand_per_seat'),
    ),
    migrations.AddConstraint(
        model_name='hand',
        constraint=models.CheckConstraint(condition=models.Q(('hand_total__gte', 0), ('hand_total__lte', 50)), name='hand_total_0_to_50'),
    ),
]


def create_missing_tables(apps, schema_editor):
    """A fresh database gets the tables; one migrated by the scoring app already has them."""
    existing = set(schema_editor.connection.introspection.table_names())
    for name in GAME_MODELS:
        model = apps.get_model("tournaments", name)
        if model._meta.db_table not in existing:
            schema_editor.create_model(model)


def move_content_types(apps, schema_editor):
    """The scoring app's content types become the tournaments app's, permissions and all."""
    content_types = apps.get_model("contenttypes", "ContentType")
    for name in GAME_MODELS:
        if content_types.objects.filter(app_label="tournaments", model=name).exists():
            continue
        content_types.objects.filter(app_label="scoring", model=name).update(
            app_label="tournaments"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0003_tournament_preset_tournament_rule_options'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=STATE),
        migrations.RunPython(create_missing_tables, migrations.RunPython.noop),
        migrations.RunPython(move_content_types, migrations.RunPython.noop),
    ]
