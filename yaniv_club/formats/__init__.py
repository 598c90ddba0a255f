"""Date formats per language, over Django's own (settings.FORMAT_MODULE_PATH).

Templates and PDFs name the formats (`DATE_FORMAT`, `SHORT_DATE_FORMAT`,
`SHORT_DATETIME_FORMAT`), so every language writes dates its own way.
"""
