"""View-models of the pages: what each page shows, computed without the UI framework."""
