"""Write the table page's words, one static file per language (tournaments.texts.script_texts):
`manage.py script_texts` after `compilemessages`, and commit the files. A test fails while
a file differs from what the catalogues give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from tournaments.texts import script_texts_path, script_texts_source


class Command(BaseCommand):
    help = "Write static/js/texts/table.<language>.js, the table page's words in each language."

    def handle(self, *args: Any, **options: Any) -> None:
        for language, _ in settings.LANGUAGES:
            path = Path(settings.BASE_DIR) / "static" / script_texts_path(language)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(script_texts_source(language), encoding="utf-8")
            self.stdout.write(f"{path.relative_to(settings.BASE_DIR)}")
