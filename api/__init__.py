"""The public read API: versioned JSON under /api/v1/, described by OpenAPI 3 (django-ninja).

It depends on `tournaments` (the models, the standings, the game sheets) and `scoring` (the
game record's writer); nothing depends on it but the project's URLs. It shows what anyone can
follow on the public pages, no more: `api.listed` decides what that is, in one place.
"""
