from __future__ import annotations

import os
from pathlib import Path

import pytest

# The shared specification folder sits beside the repository (../shared);
# SHARED_DIR points elsewhere if a checkout lives somewhere else.
SHARED_DIR = Path(os.environ.get("SHARED_DIR", Path(__file__).resolve().parents[2] / "shared"))


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    # Whitenoise's manifest storage needs collectstatic; tests serve plain files.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
