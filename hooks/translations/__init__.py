"""The translators' checks and their command (`python -m hooks.translations`): every finding with file and line."""
