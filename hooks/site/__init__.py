"""One build of the site as the hooks see it: its state and work (build.py) and the course's settings (settings.py)."""
