"""Printing and exports: the PDFs (`pdfs`), CSV, the JSON archive, backups."""
