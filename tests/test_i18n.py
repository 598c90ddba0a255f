"""The site in English, Dutch and French: the browser's language, the switcher, the pages, a PDF,
the CSV files, numbers and dates in the language's way, and complete, compiled catalogues."""

from __future__ import annotations

import gettext
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from printing import pdfs
from scoring import rules, standings
from scoring.errors import ENGINE_CODES, GAME_MESSAGES
from scoring.sheet import Mark
from tests.factories import HTMX, make_table, record
from tests.pofile import Entry, read
from tests.printing.test_printing import EIGHT, keep_png, pdftotext, squeeze
from tournaments import texts
from tournaments.rules_text import rules_context
from tournaments.sheets import GameSheet

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
TRANSLATED = ("nl", "fr")
# What a Belgian phone or laptop sends.
ACCEPT = {"en": "en-GB,en;q=0.9", "nl": "nl-BE,nl;q=0.9,en;q=0.5", "fr": "fr-BE,fr;q=0.9,en;q=0.5"}

# Ann and Bart share the win (placement points 2.5 each at a table of 4); the game ends when
# Chris goes over 150 in round 4.
ROUNDS = [{"hands": {"Ann": 1, "Bart": 0, "Chris": 45, "Dirk": 49}, "yaniv": "Ann"}] * 4


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request in Dutch or French leaves its language active in the test's thread (the
    middleware activates it): the next test starts in English again."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def browser(language: str) -> dict[str, str]:
    """The request headers of a browser set to `language`."""
    return {"Accept-Language": ACCEPT[language]}


@pytest.fixture
def table_at_round_3(table, referee):
    """The shared table on the championship day, two rounds in, one gone along with."""
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"},
        {
            "hands": {"Ann": 4, "Bart": 15, "Chris": 4, "Dirk": 9},
            "yaniv": "Ann",
            "along": ["Chris"],
        },
    )
    return table


@pytest.fixture
def finished(table_at_round_3, tournament, referee):
    """A second, finished table of the same session: Ann and Bart tie for the win."""
    other = make_table(referee=referee, tournament=tournament)
    record(other.game, referee, *ROUNDS)
    return other


# --- choosing the language ------------------------------------------------------------------


TABLE_WORDS = {
    "en": ["Table 1", "session 1", "Round 3", "Along", "Empty", "Score sheet", "Record round 3"],
    "nl": [
        "Tafel 1",
        "sessie 1",
        "Ronde 3",
        "Meegaan",
        "Lege hand",
        "Scoreblad",
        "Ronde 3 invoeren",
    ],
    "fr": ["Table 1", "séance 1", "Manche 3", "Suivre", "Main vidée", "Feuille de score"],
}


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_table_page_speaks_the_browsers_language(referee_client, table_at_round_3, language):
    response = referee_client.get(
        reverse("tables:detail", args=[table_at_round_3.pk]), headers=browser(language)
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{language}">' in html
    assert response["Content-Language"] == language
    for word in TABLE_WORDS[language]:
        assert word in html, (language, word)
    if language == "fr":
        assert "Enregistrer la manche\u00a03" not in html  # numbers stay plain
        assert "Enregistrer la manche 3" in html


def test_a_follower_sees_the_sheets_marks_and_history_in_their_language(client, table_at_round_3):
    html = client.get(
        reverse("tables:detail", args=[table_at_round_3.pk]), headers=browser("nl")
    ).content.decode()
    # Chris went along (M, "meegegaan") and the caller is marked Y.
    assert "M +0" in html and "Y +32" in html
    # The legend's letters are bold (one legend for every rule set: scoring.sheet.legend).
    assert (
        "<b>Y</b> Yaniv-roeper · <b>M</b> meegegaan · <b>F</b> foutieve Yaniv · <b>L</b> lege hand"
    ) in html
    assert "de scheidsrechter: ronde 2 ingevoerd" in html
    assert "Chris 4 (meegegaan)" not in html  # an entered round shows no "before"
    french = client.get(
        reverse("tables:detail", args=[table_at_round_3.pk]), headers=browser("fr")
    ).content.decode()
    assert "S +0" in french and "l'arbitre\u00a0: manche 2 enregistrée" in french.replace(
        "&#x27;", "'"
    )


def test_the_switcher_cookie_wins_over_the_browser(client, table_at_round_3):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(
        reverse("tables:detail", args=[table_at_round_3.pk]), headers=browser("nl")
    ).content.decode()
    assert '<html lang="fr">' in html and "Feuille de score" in html


def test_without_a_language_the_site_is_english(client, table_at_round_3):
    html = client.get(reverse("tables:detail", args=[table_at_round_3.pk])).content.decode()
    assert '<html lang="en">' in html and "Score sheet" in html


def test_the_header_has_a_switcher_that_keeps_the_page(client, table_at_round_3):
    url = reverse("tables:detail", args=[table_at_round_3.pk]) + "?x=1"
    html = client.get(url, headers=browser("nl")).content.decode()
    found = re.search(r'<form class="languages".*?</form>', html, re.DOTALL)
    assert found, html
    switcher = found.group(0)
    assert f'action="{reverse("set_language")}"' in switcher
    assert f'name="next" value="{url}"' in switcher
    assert re.findall(r'name="language" value="(\w+)"', switcher) == ["en", "nl", "fr"]
    assert 'value="nl" lang="nl" title="Nederlands" aria-pressed="true"' in switcher


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_the_switcher_sets_the_language_for_the_next_pages(table_at_round_3, language):
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("tables:detail", args=[table_at_round_3.pk]), headers=browser("nl"))
    token = page.cookies[settings.CSRF_COOKIE_NAME].value
    url = reverse("tables:detail", args=[table_at_round_3.pk])
    response = client.post(
        reverse("set_language"),
        {"language": language, "next": url, "csrfmiddlewaretoken": token},
        headers=browser("nl"),
    )
    assert response.status_code == 302 and response["Location"] == url
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == language
    html = client.get(url, headers=browser("nl")).content.decode()
    assert f'<html lang="{language}">' in html


# --- pages, numbers, dates ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "day", "half", "words"),
    [
        ("en", "21 November 2026", "2.5", ["Standings", "placement points, high first; then"]),
        (
            "nl",
            "21 november 2026",
            "2,5",
            ["Klassement", "klassementspunten, hoogste eerst; daarna"],
        ),
        ("fr", "21 novembre 2026", "2,5", ["Classement", "du plus haut au plus bas\u00a0; puis"]),
    ],
)
def test_numbers_and_dates_follow_the_language(client, finished, language, day, half, words):
    slug = finished.session.tournament.slug
    tournament_page = client.get(
        reverse("public:tournament", args=[slug]), headers=browser(language)
    )
    assert day in tournament_page.content.decode()
    html = client.get(
        reverse("public:standings", args=[slug]), headers=browser(language)
    ).content.decode()
    assert f"<strong>{half}</strong>" in html
    for word in words:
        assert word in html, (language, word)
    player = finished.seats.get(position=1).player_id
    player_page = client.get(
        reverse("public:player", args=[slug, player]), headers=browser(language)
    )
    assert half in player_page.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Scoring rules: Belgian", "32 + the left neighbour's hand"]),
        (
            "nl",
            [
                "Puntentelling: Belgische regels",
                "<b>Meegaan</b>: evenveel of minder punten dan de roeper",
                "<b>32 + de hand van de linkerbuur</b>",
                "strafpunten",
            ],
        ),
        (
            "fr",
            [
                "Décompte des points\u00a0: règles belges",
                "<b>Suivre</b>\u00a0: autant de points ou moins que le joueur qui annonce",
                "<b>32 + la main du voisin de gauche</b>",
                "points de pénalité",
            ],
        ),
    ],
)
def test_the_rules_page_is_translated(client, language, words):
    html = client.get(reverse("public:rules"), headers=browser(language)).content.decode()
    for word in words:
        assert word in html, (language, word)


def test_the_engines_errors_reach_the_referee_translated(referee_client, table_at_round_3):
    # An emptied hand must be 0: the engine says so in English, the referee reads Dutch.
    data = {"number": 3, "hand_1": 0, "hand_2": 7, "hand_3": 5, "hand_4": 1, "ending": "empty:2"}
    url = reverse("tables:record", args=[table_at_round_3.pk])
    html = referee_client.post(url, data, headers=browser("nl")).content.decode()
    assert "Een lege hand telt 0 punten." in html
    french = referee_client.post(url, data, headers=browser("fr")).content.decode()
    assert "Une main vidée vaut 0." in french
    english = referee_client.post(url, data).content.decode()
    assert "An emptied hand is 0." in english


def test_form_and_view_messages_are_translated(referee_client, table_at_round_3):
    url = reverse("tables:record", args=[table_at_round_3.pk])
    html = referee_client.post(url, {"number": 3}, headers=browser("fr")).content.decode()
    assert "Ann\u00a0: saisissez la valeur de la main." in html
    undo = referee_client.post(
        reverse("tables:undo", args=[table_at_round_3.pk]),
        {"reason": "mauvaise table", "version": table_at_round_3.game.version},
        headers=browser("nl") | HTMX,
    ).content.decode()
    assert "Laatste ronde ongedaan gemaakt." in undo


# --- PDFs and CSV files ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Score sheet · Table 1 · session 1", "Corrections", "21 November 2026"]),
        ("nl", ["Scoreblad · Tafel 1 · sessie 1", "Correcties", "21 november 2026", "meegegaan"]),
        ("fr", ["Feuille de score · Table 1 · séance 1", "21 novembre 2026", "a suivi"]),
    ],
)
def test_the_filled_score_sheet_pdf_is_in_the_language(client, table_at_round_3, language, words):
    response = client.get(
        reverse("tables:sheet_pdf", args=[table_at_round_3.pk]), headers=browser(language)
    )
    assert response.status_code == 200
    text = squeeze(pdftotext(b"".join(response.streaming_content), layout=False))
    for word in words:
        assert word in text, (language, word, text[:400])


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_pdf_keeps_its_pages_in_dutch_and_french(finished, language):
    """Longer words must not push a blank sheet onto a second page; PNGs to look at."""
    tournament = finished.session.tournament
    make_table(EIGHT, tournament=tournament, session_status="planned")
    make_table(("Eva", "Frank", "Greet"), tournament=tournament, session_status="planned")
    planned = tournament.sessions.get(status="planned")
    with translation.override(language):
        documents = {
            "score-sheets": pdfs.blank_score_sheets(planned),
            "sheet": pdfs.filled_score_sheet(GameSheet.load(finished.game)),
            "standings": pdfs.standings_pdf(tournament),
            "report": pdfs.tournament_report(tournament),
        }
    assert pdfs.page_count(documents["score-sheets"]) == 2
    assert pdfs.page_count(documents["sheet"]) == 1
    for kind, content in documents.items():
        keep_png(content, f"{kind}-{language}")
    blank = squeeze(pdftotext(documents["score-sheets"], layout=False))
    words = {
        "nl": ["Meegaan", "linkerbuur", "Precies 50, 100 of 150", "2 kaartspellen"],
        "fr": ["Suivre", "voisin de gauche", "Exactement 50, 100 ou 150", "2 jeux de cartes"],
    }[language]
    for word in words:
        assert word in blank, (language, word)


def test_the_standings_pdf_writes_halves_with_a_comma_in_french(client, finished):
    slug = finished.session.tournament.slug
    response = client.get(reverse("public:standings_pdf", args=[slug]), headers=browser("fr"))
    text = squeeze(pdftotext(b"".join(response.streaming_content), layout=False))
    assert "Classement" in text and "2,5" in text and "2.5" not in text


def test_the_csv_headers_are_in_the_language(client, finished):
    slug = finished.session.tournament.slug
    standings_csv = client.get(reverse("public:standings_csv", args=[slug]), headers=browser("nl"))
    header = standings_csv.content.decode("utf-8-sig").splitlines()[0]
    assert header.startswith("rang,speler,club,punten,spellen,gewonnen")
    rounds = client.get(reverse("public:rounds_csv", args=[slug]), headers=browser("fr"))
    lines = b"".join(rounds.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[0].startswith("tournoi,séance,table,manche,joueur,valeur de la main")
    assert ",yaniv,non," in lines[1]
    english = client.get(reverse("public:standings_csv", args=[slug])).content.decode("utf-8-sig")
    assert english.startswith("place,player,club,points")


# --- the pure modules' texts -----------------------------------------------------------------


def engine_messages() -> list[rules.GameError]:
    """What the rules engine says about a round, one bad round for each check."""
    players = ("Ann", "Bart", "Chris")
    hands = {"Ann": 3, "Bart": 9, "Chris": 0}
    bad = [
        rules.Round(hands={"Ann": 3, "Bart": 9}, yaniv="Ann"),
        rules.Round(hands={**hands, "Bart": 51}, yaniv="Ann"),
        rules.Round(hands=hands),
        rules.Round(hands=hands, empty_hand="Dora"),
        rules.Round(hands=hands, empty_hand="Ann"),
        rules.Round(hands=hands, empty_hand="Chris", along=("Ann",)),
        rules.Round(hands=hands, yaniv="Dora"),
        rules.Round(hands=hands, yaniv="Ann", along=("Ann",)),
        rules.Round(hands=hands, yaniv="Ann", along=("Bart", "Bart")),
    ]
    messages = []
    for entries in bad:
        with pytest.raises(rules.GameError) as error:
            rules.check_round(players, entries, 1)
        messages.append(error.value)
    game = rules.Game(("Ann", "Bart"), (rules.Round({"Ann": 0, "Bart": 45}, yaniv="Ann"),) * 5)
    with pytest.raises(rules.GameError) as over:
        rules.score_game(game)
    return [*messages, over.value]


def test_every_engine_message_a_referee_can_meet_is_translated():
    errors = engine_messages()
    with translation.override("nl"):
        untranslated = [e.message for e in errors if texts.translated(e) == e.message]
    assert untranslated == []
    with translation.override("en"):
        assert [texts.translated(e) for e in errors] == [e.message for e in errors]


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_a_sheets_marks_are_distinct_in_each_language(language):
    """Each language has its own letters (nl M for meegaan, fr S for suivre): none twice."""
    with translation.override(language):
        letters = [texts.mark_letter(mark) for mark in Mark]
    assert len(set(letters)) == len(Mark), letters


def test_the_standings_texts_keep_their_english_and_get_translated():
    with translation.override("en"):
        assert texts.scheme() == standings.SCHEME
        assert texts.tie_breaks() == list(standings.TIE_BREAKS)
    with translation.override("fr"):
        assert "2,5" in texts.scheme()


# --- the code behind the words (issue 13, point 16) ------------------------------------------


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Nobody goes along under the Israeli rules."),
        ("nl", "Volgens de Israëlische regels gaat niemand mee."),
        ("fr", "Selon les règles israéliennes, personne ne suit."),
    ],
)
def test_a_message_names_the_rule_set_in_the_language_never_by_its_id(language, message):
    with pytest.raises(rules.GameError) as error:
        rules.check_round(
            ("Ann", "Bart"),
            rules.Round(hands={"Ann": 3, "Bart": 9}, yaniv="Ann", along=("Bart",)),
            1,
            rules.ISRAELI,
        )
    assert error.value.params["ruleset"] == "israeli"  # the engine gives the id
    with translation.override(language):
        assert texts.game_error(error.value) == message
        # The table page's script gets the same message, the table's rule set named in it.
        template = texts.error_templates("israeli")["no_along_under_assaf"]
    assert texts.sentence(template) == message
    assert "%(ruleset)s" not in template and "israeli" not in template


@pytest.mark.parametrize(
    ("language", "name"),
    [
        ("en", "English Wikipedia"),
        ("nl", "regels van de Engelstalige Wikipedia"),
        ("fr", "règles de Wikipédia en anglais"),
    ],
)
def test_the_rules_page_of_a_preset_names_it(language, name):
    # It said "Scoring rules (Wikipedia_en)".
    with translation.override(language):
        assert rules_context(rules.WIKIPEDIA_EN)["ruleset_name"] == name


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "<bdi>Ann</bdi>: +0 → <strong>32</strong>"),
        ("nl", "<bdi>Ann</bdi>: +0 → <strong>32</strong>"),
        # French puts a narrow no-break space before a colon, even after a name.
        ("fr", "<bdi>Ann</bdi>\u202f: +0 → <strong>32</strong>"),
    ],
)
def test_the_preview_line_is_a_sentence_of_the_language(
    referee_client, table_at_round_3, language, line
):
    data = {"number": 3, "hand_1": 1, "hand_2": 7, "hand_3": 5, "hand_4": 9, "ending": "yaniv:1"}
    url = reverse("tables:preview", args=[table_at_round_3.pk])
    html = referee_client.post(url, data, headers=browser(language) | HTMX).content.decode()
    assert f"<li>{line}</li>" in html
    # Ann called with 1 on 32: no reduction. The device's script has the same sentence.
    page = referee_client.get(
        reverse("tables:detail", args=[table_at_round_3.pk]), headers=browser(language)
    ).content.decode()
    texts = re.search(r'id="device-texts"[^>]*>(.*?)</script>', page)
    assert texts is not None
    device = json.loads(texts.group(1))
    assert device["preview_line"] % {"player": "Ann", "points": 0, "total": 32} == line
    assert "%(player)s" in device["preview_line_reduced"]


def test_a_preview_line_with_a_reduction_is_a_sentence_too(referee_client, table_at_round_3):
    # Dirk on 29 + 21 = 50 → 0.
    data = {"number": 3, "hand_1": 1, "hand_2": 7, "hand_3": 5, "hand_4": 21, "ending": "yaniv:1"}
    url = reverse("tables:preview", args=[table_at_round_3.pk])
    html = referee_client.post(url, data, headers=browser("fr") | HTMX).content.decode()
    assert "<li><bdi>Dirk</bdi>\u202f: +21 → 50 → <strong>0</strong> (−50)</li>" in html


# --- the catalogues --------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"%\(\w+\)s|%%|%s|%d")


def catalogue(language: str) -> list[Entry]:
    return read(LOCALE / language / "LC_MESSAGES" / "django.po")


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    entries = catalogue(language)
    header, messages = entries[0], entries[1:]
    assert header.is_header and "fuzzy" not in header.flags
    assert f"Language: {language}\n" in header.msgstr[0]
    assert len(messages) > 400
    problems = []
    for entry in messages:
        where = f"{entry.msgctxt or ''}|{entry.msgid}"
        if entry.obsolete:
            problems.append(f"obsolete: {where}")
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {where}")
        forms = entry.translations
        if len(forms) != (2 if entry.msgid_plural else 1) or not all(forms):
            problems.append(f"untranslated: {where}")
        wanted = sorted(set(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or ""))))
        for form in forms:
            if sorted(set(PLACEHOLDER.findall(form))) != wanted:
                problems.append(f"placeholders differ: {where} → {form}")
            # Translations are trusted template text: no markup or quotes the English lacks.
            for char in '<>"':
                if char in form and char not in entry.msgid:
                    problems.append(f"{char} in: {where} → {form}")
    assert problems == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_the_current_one(language):
    """The committed .mo holds exactly the .po's translations (no gettext needed to run)."""
    folder = LOCALE / language / "LC_MESSAGES"
    with open(folder / "django.mo", "rb") as mo:
        # The parsed .mo, every entry; typeshed does not declare this private attribute.
        compiled = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    for entry in catalogue(language)[1:]:
        msgid = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            for index, form in entry.msgstr.items():
                expected[(msgid, index)] = form
        else:
            expected[msgid] = entry.msgstr[0]
    compiled = {key: value for key, value in compiled.items() if key != ""}
    assert compiled == expected, "run: manage.py compilemessages, and commit the .mo files"


@pytest.mark.slow  # makemessages, a manage.py process running xgettext
def test_the_catalogues_hold_every_message_of_the_code(tmp_path):
    """makemessages into a copy of the catalogues finds nothing new to translate.

    makemessages writes into the `locale` folder of its working directory whatever
    LOCALE_PATHS says, so it runs in a copy of the source tree: the repository's catalogues
    are never touched.
    """
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        if os.environ.get("CI"):
            pytest.fail(
                "CI checks the catalogues, but gettext is missing: apt-get install gettext"
            )
        pytest.skip("gettext (xgettext, msgmerge) is not installed")
    source = tmp_path / "source"
    # The README's makemessages skips .venv, staticfiles and test-artifacts; hidden folders
    # (.git, caches) and build output hold no messages either.
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".*", "__pycache__", "*.egg-info", "staticfiles", "test-artifacts", "db.sqlite3"
        ),
    )
    before = {path: path.read_bytes() for path in LOCALE.glob("*/LC_MESSAGES/django.*")}
    script = (
        "import django, sys; from pathlib import Path; from django.conf import settings; "
        "django.setup(); "
        "assert Path(settings.BASE_DIR) == Path(sys.argv[1]), settings.BASE_DIR; "
        "from django.core.management import call_command; "
        "call_command('makemessages', locale=['nl', 'fr'], ignore_patterns=['.venv', "
        "'staticfiles', 'test-artifacts'], no_obsolete=True, verbosity=0)"
    )
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yaniv_club.settings",
        # The copy's packages, not the repository's (installed in development mode).
        "PYTHONPATH": str(source),
    }
    environment.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "-c", script, str(source)], cwd=source, env=environment, check=True
    )
    assert {path: path.read_bytes() for path in before} == before, "the repository was changed"
    for language in TRANSLATED:
        current = {entry.key: entry for entry in catalogue(language)[1:]}
        copy = source / "locale" / language / "LC_MESSAGES" / "django.po"
        fresh = {entry.key: entry for entry in read(copy)}
        fresh.pop((None, ""))
        assert sorted(fresh.keys() - current.keys(), key=str) == [], (
            "new messages: run makemessages and translate them"
        )
        assert sorted(current.keys() - fresh.keys(), key=str) == [], (
            "messages no longer in the code: run makemessages --no-obsolete"
        )


# --- the glossary (issue 22, finding 9) ------------------------------------------------------

GLOSSARY = ROOT / "docs" / "glossary.md"

# English term of docs/glossary.md → the Dutch and French forms a translation of a message that
# has it must use (a regular expression, lower case: an inflection or a verb split in two).
HELD_TERMS = {
    "table-mates' placement points": ("punten van de tafelgenoten", "points des adversaires"),
    "placement points": ("klassementspunten", "points de classement"),
    "score sheet": ("scoreblad", "feuille de score"),
    "dispute": ("betwist", "contestation"),
    "referee": ("scheidsrechter|arbitre", "arbitr"),
    "season points": ("seizoenspunten", "points de saison"),
    "table code": ("tafelcode", "code de table"),
    "hall screen": ("zaalscherm", "écran de salle"),
    "rated game": ("rating", "coté"),
    "not settled yet": ("nog niet stabiel", "pas encore stable"),
    "repeat meeting": ("herhaalde ontmoeting", "rencontres? répétées?"),
    "round": ("ronde", "manche"),
    "session": ("sessie", "séance"),
    "standings": ("klassement", "classement"),
    "withdrawn": ("opgegeven|opgave", "abandon"),
    "emptied hand": ("lege hand", "main vidée"),
    "left neighbour": ("linkerbuur", "voisin de gauche"),
    "time limit": ("tijdslimiet", "limite de temps"),
    "director": ("wedstrijdleider", "directeur"),
    "preview": ("nazicht|nakijken", "aperçu"),
    "signed off": ("afgetekend", "signée?s?"),
    "false yaniv": ("foutieve yaniv", "faux yaniv"),
}

# Forms the glossary (or the wording review) rules out, in any translation.
FORBIDDEN = {
    "nl": [
        "klassementspunten van de tafelgenoten",  # the glossary: punten van de tafelgenoten
        "Eenmaal aangemeld",  # a dangling clause
        "verhuist",  # players move ("verplaatsen"), they do not move house
        "Zeker?",
        "vraagt een aankomst",
        "vraagt paren",  # an option "needs": moet … bestaan, is … nodig
        "wisselen vraagt",
        "„",  # one quote style: “…”
        "«",
        "voorbeeld van",  # a preview is "nazicht"
        "'%(",  # straight quotes around a name
        "Leeg gelaten,",  # a dangling participle
    ],
    "fr": [
        "points de classement des adversaires",  # the glossary: points des adversaires
        "en tant que",  # no elision before a name: "au compte …"
        "Une fois connecté",  # a dangling participle
        "chaque doit",
        "suppose d'arriver",
        " demande des paires",  # an option "needs": attend, il faut
        "annoncer Yaniv demande",
        "Abandonner",  # "abandon" is a withdrawing player's word
        "Manuel",
        "annonceur",
        "hors jeu",
        "“",  # one quote style: « … »
        "„",
        "'%(",
        "Laissée vide,",  # a dangling participle
        "(belge) ou refusée",  # "un faux Yaniv … ou refusée": the call is refused
    ],
}


def glossary_rows() -> dict[str, tuple[str, str]]:
    """The glossary's tables: English → (Dutch, French), as written there."""
    rows = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 3 and not set(cells[0]) <= {"-", " "}:
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def test_the_held_terms_are_the_glossarys():
    """Each term the catalogue test holds is in the glossary with the same words."""
    rows = glossary_rows()
    text = " ".join(f"{english} {dutch} {french}" for english, (dutch, french) in rows.items())
    assert rows["table-mates' placement points"][0].startswith("punten van de tafelgenoten")
    assert rows["table-mates' placement points"][1].startswith("points des adversaires")
    assert rows["not settled yet (a rating)"] == ("nog niet stabiel", "pas encore stable")
    for english, (dutch, french) in HELD_TERMS.items():
        assert english in text.lower(), english
        for pattern in (dutch, french):
            assert re.search(pattern, text.lower()), (english, pattern)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_message_with_a_glossary_term_uses_the_glossarys_word(language):
    column = TRANSLATED.index(language)
    drift = []
    for entry in catalogue(language)[1:]:
        english = f"{entry.msgid} {entry.msgid_plural or ''}".lower()
        for term, words in HELD_TERMS.items():
            found = len(re.findall(rf"\b{re.escape(term)}\b", english))
            if term == "placement points":
                # The table-mates' ones have their own words.
                found -= english.count("table-mates' placement points")
            if found and not all(re.search(words[column], f.lower()) for f in entry.translations):
                drift.append(f"{term}: {entry.msgid} → {entry.translations[0]}")
    assert drift == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_translation_uses_a_form_the_glossary_rules_out(language):
    found = [
        f"{form!r} in: {entry.msgid} → {text}"
        for entry in catalogue(language)[1:]
        for text in entry.translations
        for form in FORBIDDEN[language]
        if form in text
    ]
    assert found == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_provisional_is_for_sheets_only_never_for_a_rating(language):
    word = {"nl": "voorlopig", "fr": "provisoire"}[language]
    for entry in catalogue(language)[1:]:
        if "rated game" in entry.msgid or "rating" in entry.msgid.lower():
            assert all(word not in text.lower() for text in entry.translations), entry.msgid


def test_french_quotes_hold_no_break_spaces_inside():
    for entry in catalogue("fr")[1:]:
        for text in entry.translations:
            assert text.count("«") == text.count("»"), text
            assert "« " not in text and " »" not in text, text  # a plain space may break
            for quote in re.finditer("«", text):
                assert text[quote.end()] == "\u00a0", text


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "Scoring rules: Belgian (championship)"),
        ("nl", "Puntentelling: Belgische regels (kampioenschap)"),
        ("fr", "Décompte des points\u00a0: Règles belges (championnat)"),
    ],
)
def test_a_tournaments_rules_page_names_its_rule_set_without_nested_brackets(
    client, tournament, language, title
):
    html = client.get(
        reverse("public:tournament_rules", args=[tournament.slug]), headers=browser(language)
    ).content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", html)
    assert heading is not None and heading.group(1) == title
    assert "))" not in heading.group(1)


def test_the_english_quotes_a_name_with_curly_quotes():
    """One quote style in English too (“…”): it said "The address '%(slug)s' is reserved"."""
    # A quote opens after a space or a bracket; an apostrophe follows a letter (Excel's).
    opening = re.compile(r"(^|[\s(])'")
    entries = catalogue("nl")[1:]
    assert [entry.msgid for entry in entries if opening.search(entry.msgid)] == []
    # Dutch quotes the same way (“CSV”); French has its « ».
    for language in TRANSLATED:
        straight = [
            text
            for entry in catalogue(language)[1:]
            for text in entry.translations
            if opening.search(text)
        ]
        assert straight == [], language


@pytest.mark.parametrize(
    "language, message, expected",
    [
        ("nl", "As the tournament says", "Volgens de instelling van het toernooi"),
        ("fr", "As the tournament says", "Selon le réglage du tournoi"),
        (
            "nl",
            "The house rules the games are scored by.",
            "De spelregels waarmee de spellen geteld worden.",
        ),
        (
            "fr",
            "Has something to show now:",
            "Vues qui ont quelque chose à afficher maintenant\u00a0:",
        ),
    ],
)
def test_the_wording_reads_as_a_native_speaker_says_it(language, message, expected):
    # Issue 33.8: "Zoals het toernooi zegt", "Comme le dit le tournoi", "huisregels" for the
    # Belgian rules, "A quelque chose à montrer maintenant".
    with translation.override(language):
        assert translation.gettext(message) == expected


@pytest.mark.parametrize(
    "language, expected",
    [
        ("nl", "Tafel 3 speelt nog: bij het afsluiten volgt eerst een bevestiging."),
        ("fr", "La table 3 joue encore\u00a0: une confirmation sera demandée à la clôture."),
    ],
)
def test_finishing_says_a_confirmation_follows(language, expected):
    with translation.override(language):
        text = translation.ngettext(
            "Table %(tables)s still plays: finishing asks first.",
            "Tables %(tables)s still play: finishing asks first.",
            1,
        )
    assert text % {"tables": 3} == expected


def test_french_says_vous_everywhere_the_notifications_included():
    """Issue 33.8: the notifications block said *tu* where the site says *vous*."""
    catalogue = read(Path(settings.BASE_DIR) / "locale/fr/LC_MESSAGES/django.po")
    familiar = [
        entry.msgid
        for entry in catalogue
        for text in entry.msgstr.values()
        if re.search(r"\b(?:tu|ton|ta|tes|toi)\b", text, flags=re.I)
    ]
    assert familiar == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_scripts_engine_errors_speak_the_pages_language(language):
    # Issue 33.7: 13 of the phone engine's messages stayed English on a Dutch or French page.
    with translation.override(language):
        errors = texts.script_texts("belgian")["errors"]
    english = {code: errors[code] for code in ENGINE_CODES if errors[code] == GAME_MESSAGES[code]}
    assert english == {}
