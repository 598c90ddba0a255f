"""The static files as production serves them: minified, hashed, compressed.

collectstatic writes each file through `_save`, its plain name and (the manifest's pass)
its hashed one; our scripts and stylesheets are minified there, so that whitenoise's
compression that follows (brotli and gzip) and the pages' {% static %} references get the
minified copy, with no template changed and nothing for anybody to remember. The sources in
static/ stay as they are written (and as the tests and DEBUG serve them).

The minifiers are rjsmin and rcssmin (pure Python with a C speed-up, the ones
django-compressor uses): they drop comments and whitespace and never rename, so a minified
script is the same program. A bundler such as esbuild renames local names too and would
save another ~2.3 KB compressed of our ~36 KB of script (docs/performance.md, "The phone"),
but it needs node wherever the image is built or a committed copy kept current by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import brotli
import rcssmin
import rjsmin
from django.conf import settings
from django.core.files.base import ContentFile
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
# Past this size a file is the admin's or the API docs' (jQuery, Swagger UI, ReDoc and their
# source maps: 19 MB in all), never a phone's: brotli's quality 5 instead of 11 writes them
# in half a second instead of 25 s of CPU, 3 % bigger.
LARGE = 100_000


def our_folders() -> set[str]:
    """The top folders of the project's own static files (js, css, vendor, ...): the admin's,
    the API's and htmx's files come minified or are not ours to change."""
    return {
        entry.name
        for folder in settings.STATICFILES_DIRS
        for entry in Path(folder).iterdir()
        if entry.is_dir()
    }


def minifier(name: str) -> Callable[[str], str] | None:
    """How to minify the static file `name` (its plain or hashed name), or None: another kind
    of file, not ours, or minified already."""
    if ".min." in name or name.split("/", 1)[0] not in our_folders():
        return None
    return MINIFIERS.get(Path(name).suffix)


class QuickerCompressor(Compressor):
    """whitenoise's, with the large files' brotli at a quicker quality."""

    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        return brotli.compress(data, quality=11 if len(data) <= LARGE else 5)


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's storage (hashed names in a manifest, .br and .gz beside each file) with
    our scripts and stylesheets minified as they are written."""

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return QuickerCompressor(**kwargs)

    def _save(self, name: str, content: Any) -> str:
        minify = minifier(name)
        if minify is not None:
            content.seek(0)
            content = ContentFile(minify(content.read().decode("utf-8")).encode("utf-8"))
        return super()._save(name, content)
