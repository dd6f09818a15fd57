"""What the course changes in the page mkdocs-material writes around the content, and its MkDocs hook."""
